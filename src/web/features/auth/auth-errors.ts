import { ERROR_TOAST_MS } from '@domain/constants';
import { toast } from '@web/ui';

// The identity provider answers in Cognito's own words (its __type and message), which must stay as
// they are on the wire: the AWS SDK and Amplify are tested against them. A person reads this
// translation instead. Amplify's own client-side messages (SPEC.md §5: "Username cannot be empty",
// "Network Error", …) are already written for people and pass through.

/** Messages by the exact protocol text, for the types whose texts mean different things. */
const BY_MESSAGE: Record<string, string> = {
  'Incorrect username or password.': 'Incorrect username or password.',
  'User is disabled.': 'This account has been turned off. Ask your firm’s owner to turn it on again.',
  'Password attempts exceeded':
    'Too many wrong passwords: the account is locked for a while. Try again later, or reset your password.',
  'Invalid session for the user, session is expired.':
    'This sign-in took too long and has expired. Start again from the sign-in page.',
  'Access Token has been revoked': 'You have been signed out. Please sign in again.',
  'Access Token has expired': 'You have been signed out. Please sign in again.',
  'Invalid Access Token': 'You have been signed out. Please sign in again.',
  'Refresh Token has been revoked': 'You have been signed out. Please sign in again.',
  'Refresh Token has expired': 'You have been signed out. Please sign in again.',
  'Invalid Refresh Token': 'You have been signed out. Please sign in again.',
  'User is already confirmed.': 'This email address is already verified: you can sign in.',
  'Enter the verified email address of this account.': 'Enter the verified email address of this account.',
  'MFA is required for this user: the software token cannot be turned off.':
    'Your firm requires two-step sign-in, so the authenticator app cannot be turned off.',
  'User does not have a verified email.': 'Verify your email address first.',
  'The user has no email address.': 'This account has no email address to send a code to.',
  'Cannot deliver the code: the user has no email address.':
    'This account has no email address to send a code to.',
  'Cannot reset password for the user as there is no registered/verified email or phone_number':
    'This account has no verified email address, so its password cannot be reset here. Ask your firm’s owner.',
};

/** Messages by the protocol's error type, when its text says nothing more a person needs. */
const BY_TYPE: Record<string, string> = {
  CodeMismatchException: 'That code is not right. Check it and try again.',
  EnableSoftwareTokenMFAException:
    'That code is not right. Enter the 6-digit code your authenticator app shows now.',
  ExpiredCodeException: 'That code has expired or was already used. Ask for a new one.',
  UserNotFoundException: 'There is no account with that email address.',
  UserNotConfirmedException: 'Verify your email address first: open the link we sent you.',
  PasswordResetRequiredException: 'Your password must be reset before you sign in. Use “Forgot password”.',
  UsernameExistsException: 'An account with this email address already exists. Sign in instead.',
  AliasExistsException: 'An account with this email address already exists. Sign in instead.',
  LimitExceededException: 'Too many attempts. Wait a few minutes and try again.',
  TooManyRequestsException: 'Too many attempts. Wait a few minutes and try again.',
  TooManyFailedAttemptsException: 'Too many attempts. Wait a few minutes and try again.',
  CodeDeliveryFailureException: 'We could not send the code. Try again in a minute.',
  SoftwareTokenMFANotFoundException: 'Set up your authenticator app first.',
  NotAuthorizedException: 'You are not signed in, or this sign-in has expired. Please sign in again.',
  ResourceNotFoundException: 'That device or account no longer exists.',
  InternalErrorException: 'Something went wrong on our side. Please try again.',
  InvalidParameterException: 'Some of the values sent are not valid. Check them and try again.',
  SerializationException: 'Some of the values sent are not valid. Check them and try again.',
};

const POLICY_PREFIX = 'Password did not conform with policy: ';

/** What Cognito's password policy answer asks of the person, in their words. */
const POLICY: Record<string, string> = {
  'Password not long enough': 'The password is too short: use at least 8 characters.',
  'Password is too long': 'The password is too long.',
  'Password must not begin or end with a space': 'The password must not begin or end with a space.',
  'Password must have lowercase characters': 'The password needs a lowercase letter.',
  'Password must have uppercase characters': 'The password needs an uppercase letter.',
  'Password must have numeric characters': 'The password needs a digit.',
  'Password must have symbol characters': 'The password needs a symbol, such as ! or #.',
};

/** The message a person reads for a failed sign-in, sign-up, code or account call. */
export function authErrorMessage(error: unknown): string {
  if (!(error instanceof Error) || !error.message) return 'Network Error';
  const { name, message } = error;
  const byMessage = BY_MESSAGE[message];
  if (byMessage) return byMessage;
  if (message.startsWith(POLICY_PREFIX)) {
    return POLICY[message.slice(POLICY_PREFIX.length)] ?? 'The password does not meet the rules.';
  }
  if (name === 'InvalidPasswordException') return 'The password does not meet the rules.';
  return BY_TYPE[name] ?? (name.endsWith('Exception') ? 'That did not work. Please try again.' : message);
}

export function showAuthError(error: unknown): void {
  toast.error(authErrorMessage(error), { duration: ERROR_TOAST_MS });
}
