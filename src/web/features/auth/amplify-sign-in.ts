// The login page's Amplify calls, in a chunk fetched when a person starts to sign in rather than with
// the page (login-page.tsx, provider-sign-in.tsx). lib/amplify-auth.ts configures Amplify first.
import '../../lib/amplify-auth';

export { signIn, signInWithRedirect } from 'aws-amplify/auth';
