// Signed links' public surface: the root router imports from here.
export { linksRouter } from './router';
