// The system-log feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { registerSystemLogExport } from './export-http';
export { systemLogRouter } from './router';
export { audit, diff, listSystemLog, seesFirmLog } from './service';
