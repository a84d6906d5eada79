import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpAttempts, idpDevices, idpUsers } from '../db/schema';
import { createIdpTestApp, idpCall } from './test-helpers';

// Someone else's guessing must not keep a person out: wrong passwords from a stranger's address lock
// the account there, while the person still signs in from an address they signed in from recently,
// or on a device they remembered. Behind one trusted proxy hop, so the test can speak from
// several addresses (X-Forwarded-For).

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let clientId = '';
const HOME = '198.51.100.7';
const STRANGER = '203.0.113.5';

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const call = (op: string, body: unknown, ip: string) => idpCall(t.endpoint, op, body, from(ip));
const passwordAuth = (username: string, password: string, ip: string, deviceKey?: string) =>
  call(
    'InitiateAuth',
    {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: {
        USERNAME: username,
        PASSWORD: password,
        ...(deviceKey ? { DEVICE_KEY: deviceKey } : {}),
      },
    },
    ip,
  );

async function person(username: string) {
  const signUp = await call(
    'SignUp',
    { ClientId: clientId, Username: username, Password: 'Valid-Pass-1' },
    HOME,
  );
  expect(signUp.status).toBe(200);
  const code = await t.lastCode(username);
  expect(
    (await call('ConfirmSignUp', { ClientId: clientId, Username: username, ConfirmationCode: code }, HOME))
      .status,
  ).toBe(200);
}

async function strangerLocksOut(username: string) {
  const answers = [];
  for (let i = 0; i < 6; i++)
    answers.push((await passwordAuth(username, 'Wrong-Pass-1', STRANGER)).body.message);
  expect(answers.at(-1)).toBe('Password attempts exceeded');
  // As after many more guesses: the lock has grown to its longest.
  await t.db
    .update(idpAttempts)
    .set({ lockedUntil: new Date(Date.now() + 15 * 60_000) })
    .where(isNotNull(idpAttempts.lockedUntil));
  // The stranger stays locked (for a few seconds now, doubling), even with the right password.
  expect((await passwordAuth(username, 'Valid-Pass-1', STRANGER)).body.message).toBe(
    'Password attempts exceeded',
  );
}

beforeAll(async () => {
  t = await createIdpTestApp({ TRUST_PROXY: '1' });
  clientId = t.config.idp.clientId;
});
afterAll(async () => {
  await t?.close();
});

describe("a stranger's wrong passwords", () => {
  it('do not lock out the person at an address they signed in from', async () => {
    await person('home@example.test');
    // Signed in once from home: that address is now theirs for the lock.
    expect(
      (await passwordAuth('home@example.test', 'Valid-Pass-1', HOME)).body.AuthenticationResult,
    ).toBeTruthy();
    await strangerLocksOut('home@example.test');
    expect(
      (await passwordAuth('home@example.test', 'Valid-Pass-1', HOME)).body.AuthenticationResult,
    ).toBeTruthy();
    // Home's own counter still holds: guessing from home locks home too.
    const home = [];
    for (let i = 0; i < 6; i++)
      home.push((await passwordAuth('home@example.test', 'Wrong-Pass-1', HOME)).body.message);
    expect(home.at(-1)).toBe('Password attempts exceeded');
  }, 90_000);

  it('do not lock out the person on a device they remembered, wherever they are', async () => {
    await person('laptop@example.test');
    const [user] = await t.db
      .select({ id: idpUsers.id })
      .from(idpUsers)
      .where(eq(idpUsers.username, 'laptop@example.test'));
    const deviceKey = `${t.config.idp.userPoolId.split('_')[0]}_remembered-laptop`;
    await t.db.insert(idpDevices).values({
      deviceKey,
      userId: user?.id ?? '',
      groupKey: '-group',
      salt: 'salt',
      verifier: 'verifier',
      rememberedStatus: 'remembered',
      lastIp: HOME,
      createdAt: new Date(Date.now() - 90 * 24 * 3600_000),
      updatedAt: new Date(Date.now() - 90 * 24 * 3600_000),
    });
    await strangerLocksOut('laptop@example.test');
    // From a café: not a recent address, but the remembered device gets its own counter and goes on
    // to prove itself (device SRP).
    const cafe = await passwordAuth('laptop@example.test', 'Valid-Pass-1', '192.0.2.44', deviceKey);
    expect(cafe.body.ChallengeName).toBe('DEVICE_SRP_AUTH');
    // A device key that is not theirs, or not remembered, is no way around the lock.
    expect(
      (await passwordAuth('laptop@example.test', 'Valid-Pass-1', '192.0.2.44', 'x_unknown')).body.message,
    ).toBe('Password attempts exceeded');
  }, 90_000);
});
