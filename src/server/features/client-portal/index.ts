// The client-portal feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { portalAudience } from './audience';
export { registerPortalDocumentRoutes } from './http-files';
export {
  clientPortalCalendarRouter,
  clientPortalDocumentsRouter,
  clientPortalHomeRouter,
  clientPortalInvoicesRouter,
  clientPortalProjectsRouter,
  clientPortalTasksRouter,
} from './router';
