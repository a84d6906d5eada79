// The security feature's public surface: the root router imports from here.
export { securityRouter } from './router';
