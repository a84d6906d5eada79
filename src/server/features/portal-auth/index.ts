// The portal-auth feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { clientPortalAuthRouter } from './router';
export { purgePortalAuth } from './session';
