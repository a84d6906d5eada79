// The clients feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { csvWriter } from './csv';
export { registerClientExport } from './export-http';
export { ownImport } from './import-access';
export { purgeClientImports } from './import-cleanup';
export { registerClientImportRoutes } from './import-http';
export { clientTaxIds, registeredTaxIdsOf } from './registered-tax-ids';
export { clientsRouter } from './router';
export { clientVisibility, onMyClientTeam, visibleClient } from './visibility';
export { xlsxWriter } from './xlsx';
