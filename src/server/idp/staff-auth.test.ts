import { randomUUID } from 'node:crypto';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { idpSessions, idpSigningKeys, members } from '../db/schema';
import { createTestApp, type TTestApp } from '../test/app';
import { IdpKeys } from './keys';
import { createStaffAuth } from './staff-auth';
import { ACCESS_TOKEN_TTL_S, signTokens } from './tokens';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const keys = new IdpKeys(t.db);
  await keys.load();
  const staffAuth = createStaffAuth({ db: t.db, config: t.config, keys });
  const mint = async (now = Math.floor(Date.now() / 1000)) => {
    const sub = randomUUID();
    const subject = {
      sub,
      username: sub,
      email: 'x@example.test',
      emailVerified: true,
      authTime: now,
      originJti: sub,
    };
    const { accessToken } = await signTokens(keys, {
      issuer: staffAuth.issuer,
      clientId: t.config.idp.clientId,
      subject,
      now,
    });
    return accessToken;
  };
  return { keys, staffAuth, mint };
}

// Verified tokens are remembered briefly; none of that may let an ended session through.
describe('staff token verification', () => {
  it('refuses a member disabled since their last call on the very next call', async () => {
    const firm = await t.seedFirm();
    const me = t.client(firm.staff.token).profile.me;
    await expect(me.query()).resolves.toMatchObject({ id: firm.staff.id });
    await t.db.update(members).set({ status: 'disabled' }).where(eq(members.id, firm.staff.id));
    await expect(me.query()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
  });

  it('refuses a token once it has expired, though it was verified a moment before', async () => {
    const { staffAuth, mint } = await setup();
    // The clock is the test's: only Date is faked (the database and the timers run as usual), and
    // it moves when the test moves it, to either side of the token's expiry.
    const start = Math.floor(Date.now() / 1000) * 1000;
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const token = await mint(start / 1000 - ACCESS_TOKEN_TTL_S + 2);
    const expiresAt = start + 2_000;
    expect(await staffAuth.verifyAccessToken(token)).not.toBeNull();
    vi.setSystemTime(expiresAt - 1);
    expect(await staffAuth.verifyAccessToken(token)).not.toBeNull();
    vi.setSystemTime(expiresAt);
    expect(await staffAuth.verifyAccessToken(token)).toBeNull();
  });

  // Before the test that retires every signing key (the firms' tokens are signed with them).
  it('answers each of several calls asked in one turn with its own caller, revocation and status', async () => {
    const one = await t.seedFirm('One');
    const two = await t.seedFirm('Two');
    const { staffAuth, mint } = await setup();
    const revoked = await mint();
    const claims = await staffAuth.verifyAccessToken(revoked);
    await t.db.insert(idpSessions).values({
      originJti: claims?.origin_jti ?? '',
      refreshTokenHash: randomUUID(),
      authTime: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
      revokedAt: new Date(),
    });
    await t.db.update(members).set({ status: 'disabled' }).where(eq(members.id, two.staff.id));
    const ask = (token: string) =>
      staffAuth.resolve({ headers: { authorization: `Bearer ${token}` } } as never);
    // All started before any answers: the lookups share one statement.
    const answers = await Promise.all(
      [one.owner.token, two.staff.token, revoked, one.owner.token, two.owner.token].map(ask),
    );
    expect(answers.map((a) => a && { id: a.member?.memberId, status: a.member?.status })).toEqual([
      { id: one.owner.id, status: 'active' },
      { id: two.staff.id, status: 'disabled' },
      null,
      { id: one.owner.id, status: 'active' },
      { id: two.owner.id, status: 'active' },
    ]);
    // The same caller twice gets two copies: one call's scope cannot reach the other's.
    expect(answers[0]?.member).not.toBe(answers[3]?.member);
    expect(answers[0]?.member?.permissions).not.toBe(answers[3]?.member?.permissions);
  });

  it('refuses a token whose signing key was retired', async () => {
    const { keys, staffAuth, mint } = await setup();
    const token = await mint();
    expect(await staffAuth.verifyAccessToken(token)).toMatchObject({ token_use: 'access' });
    await t.db.update(idpSigningKeys).set({ retiredAt: new Date() }).where(isNull(idpSigningKeys.retiredAt));
    await keys.load();
    expect(await staffAuth.verifyAccessToken(token)).toBeNull();
  });
});
