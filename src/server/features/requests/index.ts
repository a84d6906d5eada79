// The requests feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { clientPortalRequestsRouter, requestsRouter } from './router';
export { visibleItemFile } from './access';
export { REQUEST_UPLOAD_PATH, registerRequestUploadRoute } from './upload';
