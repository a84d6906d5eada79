// The reminders feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { queueSend, REMINDER_SEND, registerReminderJobs } from './delivery';
export { remindersRouter } from './router';
