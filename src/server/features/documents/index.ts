// The documents feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { checkTree, liveDocument, liveFolder } from './access';
export {
  downloadableVersion,
  recordUpload,
  storeVersion,
  type TStoredUpload,
  versionForDownload,
} from './files';
export { clientTreeReach, createFolder, ensureTree, openTree, topFolder } from './folders';
export { registerDocumentRoutes, sendStoredFile } from './http-files';
export { ORPHAN_MIN_AGE_MS, sweepOrphanFiles } from './orphans';
export { portalDocumentWhere, portalFolderIds, portalReach, portalState } from './portal-visibility';
export { documentsRouter } from './router';
export { sniffContentType } from './sniff';
export { purgeTrash } from './trash';
export { receiveRawUpload, receiveUpload, registerMultipart } from './upload-stream';
export { zipSegment } from './zip';
