// The clients feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { registerClientExport } from './export';
export { purgeClientImports } from './import-cleanup';
export { registerClientImportRoutes } from './import-routes';
export { clientsRouter } from './router';
export { clientVisibility, onMyClientTeam, visibleClient } from './visibility';
