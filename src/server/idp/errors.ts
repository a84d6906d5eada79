import { isDataException } from '../db/errors';
/** A Cognito error: HTTP 400 with `{"__type","message"}` (IDP.md §3). */
export class IdpError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = type;
  }
}

const make = (type: string) => (message: string) => new IdpError(type, message);

export const notAuthorized = make('NotAuthorizedException');
export const invalidParameter = make('InvalidParameterException');
export const invalidPassword = make('InvalidPasswordException');
export const resourceNotFound = make('ResourceNotFoundException');

export const E = {
  wrongPassword: () => notAuthorized('Incorrect username or password.'),
  userDisabled: () => notAuthorized('User is disabled.'),
  accessRevoked: () => notAuthorized('Access Token has been revoked'),
  accessExpired: () => notAuthorized('Access Token has expired'),
  accessInvalid: () => notAuthorized('Invalid Access Token'),
  refreshRevoked: () => notAuthorized('Refresh Token has been revoked'),
  refreshExpired: () => notAuthorized('Refresh Token has expired'),
  refreshInvalid: () => notAuthorized('Invalid Refresh Token'),
  sessionExpired: () => notAuthorized('Invalid session for the user, session is expired.'),
  userNotFound: () => new IdpError('UserNotFoundException', 'User does not exist.'),
  userNotConfirmed: () => new IdpError('UserNotConfirmedException', 'User is not confirmed.'),
  resetRequired: () => new IdpError('PasswordResetRequiredException', 'Password reset required for the user'),
  codeMismatch: () =>
    new IdpError('CodeMismatchException', 'Invalid verification code provided, please try again.'),
  codeExpired: () =>
    new IdpError('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
  usernameExists: () => new IdpError('UsernameExistsException', 'User already exists'),
  aliasExists: () => new IdpError('AliasExistsException', 'An account with the given email already exists.'),
  attemptLimit: () =>
    new IdpError('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
  /** Cognito's lock answer: NotAuthorized, so clients do not take it for throttling and retry. */
  passwordAttempts: () => notAuthorized('Password attempts exceeded'),
  mfaCodeMismatch: () => new IdpError('CodeMismatchException', 'Invalid code received for user'),
  deviceNotFound: () => resourceNotFound('Device does not exist.'),
};

/** The body and headers of an error answer. */
export function errorResponse(error: unknown): {
  status: number;
  type: string;
  body: { __type: string; message: string };
} {
  if (error instanceof IdpError) {
    return { status: error.status, type: error.type, body: { __type: error.type, message: error.message } };
  }
  // The last resort: a value the database refused (SQLSTATE class 22) was the caller's.
  if (isDataException(error)) {
    return {
      status: 400,
      type: 'InvalidParameterException',
      body: { __type: 'InvalidParameterException', message: 'Some of the values sent are not valid' },
    };
  }
  return {
    status: 500,
    type: 'InternalErrorException',
    body: { __type: 'InternalErrorException', message: 'An internal error occurred.' },
  };
}
