// A hosted sign-in coming back (lib/auth.ts): Amplify, configured, with the listener that finishes
// the flow. Amplify registers that listener only beside signInWithRedirect, which a page opened by
// the provider's redirect has not loaded.
import './amplify-auth';
import 'aws-amplify/auth/enable-oauth-listener';
