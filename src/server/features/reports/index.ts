// The reports feature's public surface: the root router imports from here.

export { registerReportExports } from './export-http';
export { reportsRouter } from './router';
