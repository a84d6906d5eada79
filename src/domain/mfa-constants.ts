// The message the web app's tRPC client knows, without zod (mfa.ts re-exports it).

/**
 * What every staff call answers (FORBIDDEN) once a member's grace is over and they still have no
 * authenticator: the web app takes them to set-up on seeing it.
 */
export const MFA_SETUP_REQUIRED_MESSAGE =
  'Your firm requires two-step sign-in: set up an authenticator app to continue';
