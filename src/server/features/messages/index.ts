// The messages feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { staffAttachment } from './attachments';
export { registerMessageRoutes } from './http';
export { registerMessageJobs, sendThreadMail } from './mail';
export { MESSAGE_MAIL_DELAY_MS, MESSAGES_MAIL } from './notify';
export { clientPortalMessagesRouter, messagesRouter } from './router';
