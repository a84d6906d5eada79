// The team feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { leaveFirmsOnAccountDeletion } from './account-deletion';
export { confirmInvitedSignUp } from './invite-signup';
export { invitesRouter, teamRouter } from './router';
export { logMemberSecurityEvent, logMemberSignIn } from './sign-in';
