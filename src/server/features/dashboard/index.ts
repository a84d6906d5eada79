// The dashboard feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { watchDashboardChanges } from './cache';
export { dashboardRouter } from './router';
export { dashboardSummary } from './service';
