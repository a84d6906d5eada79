// Mail, for every feature: the mailer (made once, in app.ts), the generic message builders, and
// enqueueMail to send a message from inside a mutation's transaction through the job queue.
// Features keep their own message texts (features/<feature>/mail.ts) and import only this module.

export {
  createMailer,
  outboxLines,
  readOutbox,
  type TMailAttachment,
  type TMailer,
  type TMailMessage,
  type TOutboxMessage,
} from './mailer';
export { absoluteLink, notificationMessage, type TNotificationMail } from './messages';
export {
  enqueueMail,
  enqueueNotificationMail,
  MAIL_BACKOFF,
  MAIL_SEND,
  MAIL_SEND_ATTEMPTS,
  registerMailJob,
  renderMail,
  type TEnqueueMailOptions,
  type TFailedMail,
  type TMailJobPayload,
} from './queue';
