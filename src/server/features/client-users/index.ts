// The client-users feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { hashInviteKey } from './keys';
export { clientUsersRouter } from './router';
