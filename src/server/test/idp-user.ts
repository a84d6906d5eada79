import { vi } from 'vitest';
import { idpCall } from '../idp/test-helpers';
import { readOutbox } from '../mail/mailer';

/**
 * A confirmed user of an identity provider, signed in over the wire as any client would
 * (SignUp, the mailed code, ConfirmSignUp, USER_PASSWORD_AUTH). Answers its tokens.
 */
export async function signedUpUser(
  idp: { endpoint: string; clientId: string; outboxDir: string },
  user: { email: string; password?: string; firstName?: string; lastName?: string },
) {
  const password = user.password ?? 'Ledger#2026';
  const call = async (op: string, body: Record<string, unknown>) => {
    const res = await idpCall(idp.endpoint, op, { ClientId: idp.clientId, ...body });
    if (res.status !== 200) throw new Error(`${op}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await call('SignUp', {
    Username: user.email,
    Password: password,
    UserAttributes: [
      { Name: 'email', Value: user.email },
      { Name: 'given_name', Value: user.firstName ?? 'Test' },
      { Name: 'family_name', Value: user.lastName ?? 'User' },
    ],
  });
  const code = await vi.waitFor(
    async () => {
      const found = (await readOutbox(idp.outboxDir)).filter((m) => m.to === user.email).at(-1)?.notes.code;
      if (!found) throw new Error(`no sign-up code mailed to ${user.email}`);
      return found;
    },
    { timeout: 10_000, interval: 20 },
  );
  await call('ConfirmSignUp', { Username: user.email, ConfirmationCode: code });
  const auth = (await call('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: user.email, PASSWORD: password },
  })) as { AuthenticationResult: { AccessToken: string; IdToken: string; RefreshToken: string } };
  return auth.AuthenticationResult;
}
