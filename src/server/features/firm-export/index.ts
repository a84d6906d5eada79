// The whole-firm export's public surface: the root router, the composition root and the jobs
// import from here, never from the files beside it.
export { registerFirmExportRoutes } from './http';
export { registerFirmExportJobs } from './jobs';
export { firmExportRouter } from './router';
export { downloadableExport, FIRM_EXPORT_JOB } from './service';
