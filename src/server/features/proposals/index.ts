// The proposals feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

export { followUpProposal, PROPOSAL_FOLLOW_UP } from './follow-up';
export { registerSigningRoutes } from './http';
export { PROPOSAL_REMINDERS, sendProposalReminders } from './reminders';
export { clientPortalSigningRouter, proposalsRouter, signingRouter } from './router';
export { PROPOSAL_SEAL, registerProposalJobs, sealProposal } from './seal';
