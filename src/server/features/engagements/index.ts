// The engagements feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { engagementsRouter } from './router';
export { insertEngagement } from './service';
