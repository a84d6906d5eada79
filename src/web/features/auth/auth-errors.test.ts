import { describe, expect, it } from 'vitest';
import { authErrorMessage } from './auth-errors';

/** An error as Amplify hands on the identity provider's answer: its name is the Cognito __type. */
const cognito = (type: string, message: string) => Object.assign(new Error(message), { name: type });

// Words a person should never read: Cognito's protocol names and texts.
const PROTOCOL =
  /Exception|Software Token|conform with policy|Invalid code received|Access Token|session is expired/;

describe('the identity provider’s answers, as a person reads them', () => {
  it('says a wrong authenticator code is wrong, not the protocol’s words', () => {
    const message = authErrorMessage(
      cognito('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA'),
    );
    expect(message).toMatch(/code is not right/);
    expect(message).not.toMatch(PROTOCOL);
  });

  it('translates every protocol answer the embedded provider gives', () => {
    const answers: [string, string][] = [
      ['CodeMismatchException', 'Invalid code received for user'],
      ['CodeMismatchException', 'Invalid verification code provided, please try again.'],
      ['ExpiredCodeException', 'Invalid code provided, please request a code again.'],
      ['InvalidPasswordException', 'Password did not conform with policy: Password not long enough'],
      ['NotAuthorizedException', 'Invalid session for the user, session is expired.'],
      ['NotAuthorizedException', 'Access Token has been revoked'],
      ['LimitExceededException', 'Attempt limit exceeded, please try after some time.'],
      ['UsernameExistsException', 'User already exists'],
      ['InvalidParameterException', "1 validation error detected: Value at 'x' failed to satisfy constraint"],
      ['SomeNewException', 'A thing the web app has never seen'],
    ];
    for (const [type, text] of answers) expect(authErrorMessage(cognito(type, text))).not.toMatch(PROTOCOL);
    expect(
      authErrorMessage(
        cognito(
          'InvalidPasswordException',
          'Password did not conform with policy: Password must have symbol characters',
        ),
      ),
    ).toBe('The password needs a symbol, such as ! or #.');
  });

  it('keeps Amplify’s own messages, which SPEC.md §5 gives word for word', () => {
    expect(authErrorMessage(cognito('EmptySignInUsername', 'Username cannot be empty'))).toBe(
      'Username cannot be empty',
    );
    expect(authErrorMessage(cognito('NotAuthorizedException', 'Incorrect username or password.'))).toBe(
      'Incorrect username or password.',
    );
    expect(authErrorMessage('not an error')).toBe('Network Error');
  });
});
