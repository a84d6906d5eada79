// The timesheets feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { entry, rateJoins, seesMoney } from './rates';
export { timesheetsRouter } from './router';
export { timeLogged } from './time-logged';
export { registerTimesheetJobs } from './timer-jobs';
