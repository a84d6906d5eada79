// The messages feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { staffAttachment } from './attachments';
export { postClientMessage } from './automated';
export { registerMessageRoutes } from './http';
export { receiveInbound } from './inbound';
export { forwardingAddress, replyAddress } from './inbound-address';
export { INBOUND_WEBHOOK_PATH, registerInboundWebhook } from './inbound-http';
export { registerMessageJobs, sendThreadMail } from './mail';
export { MESSAGE_MAIL_DELAY_MS, MESSAGES_MAIL } from './notify';
export { clientPortalMessagesRouter, messagesRouter } from './router';
export { startInboundSmtp } from './smtp-listener';
