// The settings feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { firmDateTime, firmFormatter } from './formatter';
export { sniffImage } from './logo';
export { registerLogoRoute } from './logo-http';
export { settingsRouter } from './router';
