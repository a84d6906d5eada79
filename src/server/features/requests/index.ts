// The requests feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { visibleItemFile } from './access';
export { REQUESTS_FROM_PROJECTS, registerRequestJobs, sendDueProjectRequests } from './auto-send';
export { REQUEST_CHASE, registerRequestChaseJob, sendRequestReminders } from './chase';
export { requestFromTemplate } from './from-template';
export { clientPortalRequestsRouter, requestsRouter } from './router';
export { REQUEST_UPLOAD_PATH, registerRequestUploadRoute } from './upload';
