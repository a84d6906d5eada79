// The broadcasts feature's public surface.

// The bench (bench/broadcasts.ts) measures the service itself.
export { summarize } from './audience';
/** One client's message from a template or a text (automations' "send a message"). */
export { renderClientMessage } from './client-message';
export { registerBroadcastRoutes } from './http';
export { BROADCAST_PUMP, registerBroadcastJobs } from './pump';
export { BROADCAST_QUEUE, queueBroadcast, queueing, registerQueueingJob } from './queueing';
/** The rich-text editor's HTML made safe (proposals' letters use the same rules). */
export { sanitizeBody } from './render';
export { broadcastsRouter, broadcastTemplatesRouter } from './router';
export { createBroadcast, updateSettings } from './service';
