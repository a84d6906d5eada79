import { and, eq, like, sql } from 'drizzle-orm';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PORTAL_LOGIN_COOKIE } from '../../../domain/web-config';
import { createPortalSession, PORTAL_SESSION_COOKIE } from '../../auth';
import {
  clients,
  clientUserInvites,
  clientUsers,
  idpAttempts,
  portalCodes,
  portalSessions,
  systemLog,
} from '../../db/schema';
import { createIdpTestApp } from '../../idp/test-helpers';
import { periodicJobs, registeredJob, type TJobContext } from '../../jobs/registry';
import { PORTAL_PURGE, registerJobs } from '../../jobs/setup';
import { portalClient, seedPortalUser } from '../../test/portal';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  // Behind one proxy, so each test can come from its own address (the per-IP limits).
  t = await createIdpTestApp({ TRUST_PROXY: '1' });
});
afterAll(() => t?.close());

let ipSeq = 0;
const newIp = () => `203.0.113.${++ipSeq}`;

// Success answers and error shapes share the fields these tests read.
type TCall = { status: number; body: { message: string; data: { code: string } }; cookies: string[] };

/** One tRPC call over HTTP, as the browser makes it, with the Set-Cookie headers it answers. */
async function call(
  path: string,
  input: unknown,
  options: { ip?: string; cookie?: string; kind?: 'query' | 'mutation' } = {},
): Promise<TCall> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  if (options.cookie) headers.cookie = options.cookie;
  const serialised = superjson.serialize(input);
  const res =
    options.kind === 'query'
      ? await fetch(`${t.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(serialised))}`, {
          headers,
        })
      : await fetch(`${t.url}/api/trpc/${path}`, {
          method: 'POST',
          headers,
          body: input === undefined ? undefined : JSON.stringify(serialised),
        });
  const json = (await res.json()) as { result?: { data: unknown }; error?: { json: unknown } };
  return {
    status: res.status,
    body: (json.result
      ? superjson.deserialize(json.result.data as never)
      : json.error?.json) as TCall['body'],
    cookies: res.headers.getSetCookie(),
  };
}

const sessionTokenFrom = (cookies: string[]) =>
  cookies
    .find((c) => c.startsWith(`${PORTAL_SESSION_COOKIE}=`))
    ?.split(';')[0]
    ?.split('=')[1] ?? '';

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const [alpha] = await t.db
    .insert(clients)
    .values({ orgId: f.org.id, code: 'A', name: `${name} Alpha` })
    .returning();
  if (!alpha) throw new Error('client not created');
  return { ...f, alpha, api: t.client(f.owner.token) };
}

/** Mail may be written after the answer (or by a job): waits for it rather than for a time. */
const untilMailed = <T>(find: () => Promise<T | undefined>, what: string) =>
  vi.waitFor(
    async () => {
      const found = await find();
      if (found === undefined) throw new Error(`not mailed yet: ${what}`);
      return found;
    },
    { timeout: 10_000, interval: 20 },
  );

/** The key in the invitation mailed to an address, waiting for the `count`th such mail. */
const invitedKey = (email: string, count = 1) =>
  untilMailed(async () => {
    const links = (await t.readOutbox())
      .filter((m) => m.to === email && m.notes.link?.includes('/clientportal/auth/invite/'))
      .map((m) => m.notes.link ?? '');
    return links.length >= count ? (links.at(-1)?.split('/invite/')[1] ?? '') : undefined;
  }, `invitation #${count} to ${email}`);

const codeMails = async (email: string) =>
  (await t.readOutbox()).filter((m) => m.to === email && m.notes.code).length;

async function codeFor(email: string, ip: string) {
  const before = await codeMails(email);
  await call('clientPortalAuth.requestCode', { email }, { ip });
  return untilMailed(async () => {
    const mine = (await t.readOutbox()).filter((m) => m.to === email && m.notes.code);
    return mine.length > before ? (mine.at(-1)?.notes.code ?? '') : undefined;
  }, `code to ${email}`);
}

describe('invitation links', () => {
  it('shows an open invitation, accepts it once, signs in with both cookies', async () => {
    const f = await firm('Accept');
    await f.api.clientUsers.invite.mutate({
      clientId: f.alpha.id,
      email: 'ana@example.test',
      name: 'Ana',
      phone: '',
    });
    const key = await invitedKey('ana@example.test');
    const anon = portalClient(t);
    expect(await anon.clientPortalAuth.invite.query({ key })).toMatchObject({
      state: 'open',
      message: null,
      firmName: 'Accept',
      clientName: 'Accept Alpha',
      email: 'ana@example.test',
      name: 'Ana',
    });

    const accepted = await call('clientPortalAuth.acceptInvite', { key }, { ip: newIp() });
    expect(accepted.status).toBe(200);
    const session = accepted.cookies.find((c) => c.startsWith(`${PORTAL_SESSION_COOKIE}=`)) ?? '';
    const companion = accepted.cookies.find((c) => c.startsWith(`${PORTAL_LOGIN_COOKIE}=`)) ?? '';
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Strict/i);
    expect(session).not.toMatch(/Secure/i); // PUBLIC_URL is http here
    expect(companion).not.toMatch(/HttpOnly/i);
    const me = await portalClient(t, sessionTokenFrom(accepted.cookies)).clientPortalProfile.me.query();
    expect(me).toMatchObject({ email: 'ana@example.test', name: 'Ana', clients: [{ id: f.alpha.id }] });
    // The link proved the mailbox: signed in with no code, the invitation the only mail.
    expect((await t.readOutbox()).filter((m) => m.to === 'ana@example.test')).toHaveLength(1);

    const [user] = await t.db.select().from(clientUsers).where(eq(clientUsers.email, 'ana@example.test'));
    expect(user?.status).toBe('active');
    expect(user?.lastSignInAt).toBeInstanceOf(Date);
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'client_user.accept')));
    expect(log).toMatchObject({ actorKind: 'client_user', actorClientUserId: user?.id });

    // Used: says so, and cannot be used again.
    expect(await anon.clientPortalAuth.invite.query({ key })).toMatchObject({
      state: 'accepted',
      message: 'This invitation has already been used. Sign in with a code sent to your email.',
    });
    await expect(anon.clientPortalAuth.acceptInvite.mutate({ key })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'This invitation has already been used. Sign in with a code sent to your email.',
    });
  });

  it('expired, revoked, unknown and malformed keys say so', async () => {
    const f = await firm('States');
    const anon = portalClient(t);
    const { id } = await f.api.clientUsers.invite.mutate({
      clientId: f.alpha.id,
      email: 'late@example.test',
      name: 'Late',
      phone: '',
    });
    const key = await invitedKey('late@example.test');
    await t.db
      .update(clientUserInvites)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(clientUserInvites.clientUserId, id));
    const expired = 'This invitation has expired. Ask States to send you a new one.';
    expect(await anon.clientPortalAuth.invite.query({ key })).toMatchObject({
      state: 'expired',
      message: expired,
    });
    await expect(anon.clientPortalAuth.acceptInvite.mutate({ key })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: expired,
    });
    // Resending gives a new, working link.
    await f.api.clientUsers.resendInvite.mutate({ clientId: f.alpha.id, clientUserId: id });
    const fresh = await invitedKey('late@example.test', 2);
    expect((await anon.clientPortalAuth.invite.query({ key: fresh })).state).toBe('open');

    await t.db
      .update(clientUserInvites)
      .set({ revokedAt: new Date() })
      .where(eq(clientUserInvites.clientUserId, id));
    expect(await anon.clientPortalAuth.invite.query({ key: fresh })).toMatchObject({
      state: 'revoked',
      message: 'This invitation was withdrawn by States. Ask them if you still need access.',
    });
    await expect(anon.clientPortalAuth.acceptInvite.mutate({ key: fresh })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });

    await expect(anon.clientPortalAuth.invite.query({ key: 'A'.repeat(43) })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
      message: 'This invitation link is not valid. Ask the firm to send you a new one.',
    });
    await expect(anon.clientPortalAuth.invite.query({ key: 'short' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });
});

describe('one-time codes', () => {
  it('answers the same whoever asks; mails a code only to an active client user', async () => {
    const f = await firm('Same');
    await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id], email: 'real@example.test' });
    await f.api.clientUsers.invite.mutate({
      clientId: f.alpha.id,
      email: 'pending@example.test',
      name: 'P',
      phone: '',
    });
    const ip = newIp();
    // The real user asks last: once their code is in the outbox, a code to either of the others,
    // whose sends would have started before the real one's request was even made, would be too.
    const nobody = await call('clientPortalAuth.requestCode', { email: 'nobody@example.test' }, { ip });
    const pending = await call('clientPortalAuth.requestCode', { email: 'pending@example.test' }, { ip });
    const real = await call('clientPortalAuth.requestCode', { email: 'Real@Example.test' }, { ip });
    expect(real.status).toBe(200);
    expect(nobody.body.message.replace('nobody', 'real')).toBe(real.body.message);
    expect(pending.status).toBe(200);
    await vi.waitFor(async () => expect(await codeMails('real@example.test')).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 20,
    });
    expect(await codeMails('real@example.test')).toBe(1);
    expect(await codeMails('nobody@example.test')).toBe(0);
    expect(await codeMails('pending@example.test')).toBe(0);
    const mail = (await t.readOutbox()).find((m) => m.to === 'real@example.test' && m.notes.code);
    expect(mail?.notes.code).toMatch(/^[0-9]{6}$/);
    expect(mail?.text).toContain(mail?.notes.code ?? 'x');
  });

  it('a right code signs in once, updates the last sign-in and logs it per firm', async () => {
    const f1 = await firm('CodeOne');
    const f2 = await firm('CodeTwo');
    const email = 'both@example.test';
    const a = await seedPortalUser(t, { orgId: f1.org.id, clientIds: [f1.alpha.id], email });
    const b = await seedPortalUser(t, { orgId: f2.org.id, clientIds: [f2.alpha.id], email });
    const ip = newIp();
    const code = await codeFor(email, ip);
    const ok = await call('clientPortalAuth.verifyCode', { email, code }, { ip });
    expect(ok.status).toBe(200);
    const me = await portalClient(t, sessionTokenFrom(ok.cookies)).clientPortalProfile.me.query();
    expect(me.clients.map((c) => c.id).sort()).toEqual([f1.alpha.id, f2.alpha.id].sort());
    for (const [orgId, userId] of [
      [f1.org.id, a.user.id],
      [f2.org.id, b.user.id],
    ] as const) {
      const [user] = await t.db.select().from(clientUsers).where(eq(clientUsers.id, userId));
      expect(user?.lastSignInAt).toBeInstanceOf(Date);
      const logs = await t.db
        .select()
        .from(systemLog)
        .where(and(eq(systemLog.orgId, orgId), eq(systemLog.action, 'client_user.sign_in')));
      expect(logs).toEqual([
        expect.objectContaining({ actorKind: 'client_user', actorClientUserId: userId }),
      ]);
    }
    // Single use.
    const again = await call('clientPortalAuth.verifyCode', { email, code }, { ip });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(
      'That code can no longer be used (expired, already used, or too many wrong tries). Request a new code.',
    );
  });

  it('an expired code is dead; a newer code kills the older one', async () => {
    const f = await firm('Expiry');
    const email = 'expiry@example.test';
    await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id], email });
    const ip = newIp();
    const old = await codeFor(email, ip);
    const current = await codeFor(email, ip);
    const first = await call('clientPortalAuth.verifyCode', { email, code: old }, { ip });
    if (old !== current) expect(first.status).toBe(400);
    await t.db
      .update(portalCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(portalCodes.email, email));
    const late = await call('clientPortalAuth.verifyCode', { email, code: current }, { ip });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/no longer be used/);
    expect(sessionTokenFrom(late.cookies)).toBe('');
  });

  it('five wrong guesses kill the code, even for the right one after', async () => {
    const f = await firm('Guess');
    const email = 'guess@example.test';
    await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id], email });
    const ip = newIp();
    const code = await codeFor(email, ip);
    const wrong = code === '000000' ? '111111' : '000000';
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push((await call('clientPortalAuth.verifyCode', { email, code: wrong }, { ip })).body.message);
    }
    expect(messages).toEqual([
      'That code is not right. 4 attempts left.',
      'That code is not right. 3 attempts left.',
      'That code is not right. 2 attempts left.',
      'That code is not right. 1 attempt left.',
      'That code can no longer be used (expired, already used, or too many wrong tries). Request a new code.',
    ]);
    const right = await call('clientPortalAuth.verifyCode', { email, code }, { ip });
    expect(right.status).toBe(400);
    const bad = await call('clientPortalAuth.verifyCode', { email, code: '12ab' }, { ip });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Enter the 6-digit code from the email');
  });
});

describe('rate limits', () => {
  it('requesting codes: 5 per email, then TOO_MANY_REQUESTS', async () => {
    const email = 'flood@example.test';
    for (let i = 0; i < 5; i++) {
      expect((await call('clientPortalAuth.requestCode', { email }, { ip: newIp() })).status).toBe(200);
    }
    const sixth = await call('clientPortalAuth.requestCode', { email }, { ip: newIp() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.data.code).toBe('TOO_MANY_REQUESTS');
    expect(sixth.body.message).toBe('Too many codes requested. Wait 15 minutes, then request a new one.');
  });

  it('requesting codes: 20 per IP, then TOO_MANY_REQUESTS', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) {
      const r = await call('clientPortalAuth.requestCode', { email: `ip-${i}@example.test` }, { ip });
      expect(r.status).toBe(200);
    }
    const next = await call('clientPortalAuth.requestCode', { email: 'ip-new@example.test' }, { ip });
    expect(next.status).toBe(429);
    expect(
      (await call('clientPortalAuth.requestCode', { email: 'ip-new@example.test' }, { ip: newIp() })).status,
    ).toBe(200);
  });

  it('trying codes: 30 per IP, then TOO_MANY_REQUESTS; the email itself is never locked', async () => {
    const email = 'tries@example.test';
    for (let i = 0; i < 12; i++) {
      expect(
        (await call('clientPortalAuth.verifyCode', { email, code: '123456' }, { ip: newIp() })).status,
      ).toBe(400);
    }

    const ip = newIp();
    for (let i = 0; i < 30; i++) {
      const r = await call(
        'clientPortalAuth.verifyCode',
        { email: `v-${i}@example.test`, code: '123456' },
        { ip },
      );
      expect(r.status).toBe(400);
    }
    const next = await call(
      'clientPortalAuth.verifyCode',
      { email: 'v-x@example.test', code: '123456' },
      { ip },
    );
    expect(next.status).toBe(429);
    expect(next.body.message).toBe('Too many sign-in attempts. Wait 15 minutes, then try again.');
  });

  it("someone else's guessing spends the code; the person's new code still signs in", async () => {
    const f = await firm('Guessed');
    const email = 'guessed@example.test';
    await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id], email });
    const mine = newIp();
    const first = await codeFor(email, mine);
    const guess = (i: number) => (String(100000 + i) === first ? '099999' : String(100000 + i));
    // 40 guesses at once, from one address and from many: at most 5 are ever checked against the code.
    const one = newIp();
    const many = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call('clientPortalAuth.verifyCode', { email, code: guess(i) }, { ip: i < 20 ? one : newIp() }),
      ),
    );
    const checked = many.filter((r) => r.body.message?.startsWith('That code is not right.'));
    expect(checked.length).toBeLessThanOrEqual(4);
    expect(many.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const [row] = await t.db
      .select({ attempts: portalCodes.attempts })
      .from(portalCodes)
      .where(eq(portalCodes.email, email));
    expect(row?.attempts).toBeLessThanOrEqual(5);
    // The person asks for a new code, from their own address, and it works.
    const code = await codeFor(email, mine);
    const ok = await call('clientPortalAuth.verifyCode', { email, code }, { ip: mine });
    expect(ok.status).toBe(200);
  });

  it('a burst of 30 code requests for one email mails 5 codes, and one is live', async () => {
    const f = await firm('Burst');
    const email = 'burst@example.test';
    await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id], email });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call('clientPortalAuth.requestCode', { email }, { ip: newIp() })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(25);
    await untilMailed(async () => ((await codeMails(email)) >= 5 ? true : undefined), '5 codes');
    expect(await codeMails(email)).toBe(5);
    const live = await t.db
      .select({ id: portalCodes.id })
      .from(portalCodes)
      .where(and(eq(portalCodes.email, email), sql`${portalCodes.consumedAt} is null`));
    expect(live).toHaveLength(1);
  });

  it('a burst of 30 code requests from one address takes 20', async () => {
    const ip = newIp();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('clientPortalAuth.requestCode', { email: `burst-ip-${i}@example.test` }, { ip }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(20);
  });

  it('a client-written X-Forwarded-For does not change its address behind one proxy', async () => {
    // The proxy appends the address it saw; only that last entry counts.
    const ip = newIp();
    for (let i = 0; i < 20; i++) {
      const forged = `198.51.100.${i + 1}, ${ip}`;
      const r = await call(
        'clientPortalAuth.requestCode',
        { email: `xff-${i}@example.test` },
        { ip: forged },
      );
      expect(r.status).toBe(200);
    }
    const next = await call(
      'clientPortalAuth.requestCode',
      { email: 'xff-x@example.test' },
      { ip: `9.9.9.9, ${ip}` },
    );
    expect(next.status).toBe(429);
  });
});

describe('sessions', () => {
  it('logout ends the session on the server and clears both cookies', async () => {
    const f = await firm('Logout');
    const p = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id] });
    const cookie = `${PORTAL_SESSION_COOKIE}=${p.token}; ${PORTAL_LOGIN_COOKIE}=1`;
    const out = await call('clientPortalAuth.logout', undefined, { cookie });
    expect(out.status).toBe(200);
    expect(
      out.cookies.some(
        (c) => c.startsWith(`${PORTAL_SESSION_COOKIE}=;`) && /Expires=Thu, 01 Jan 1970/.test(c),
      ),
    ).toBe(true);
    expect(out.cookies.some((c) => c.startsWith(`${PORTAL_LOGIN_COOKIE}=;`))).toBe(true);
    await expect(p.client.clientPortalProfile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'client_user.sign_out')));
    expect(log?.actorClientUserId).toBe(p.user.id);
    // Signing out twice, or with no session, is harmless.
    expect((await call('clientPortalAuth.logout', undefined, { cookie })).status).toBe(200);
    expect((await call('clientPortalAuth.logout', undefined)).status).toBe(200);
  });

  it('a dead session answers 401 on a portal call and clears the cookies', async () => {
    const f = await firm('Dead');
    const p = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id] });
    await t.db
      .update(portalSessions)
      .set({ revokedAt: new Date() })
      .where(eq(portalSessions.email, p.user.email));
    const r = await call('clientPortalProfile.me', undefined, {
      kind: 'query',
      cookie: `${PORTAL_SESSION_COOKIE}=${p.token}; ${PORTAL_LOGIN_COOKIE}=1`,
    });
    expect(r.status).toBe(401);
    expect(r.cookies.some((c) => c.startsWith(`${PORTAL_LOGIN_COOKIE}=;`))).toBe(true);
  });
});

describe('the purge job', () => {
  it('runs hourly and removes expired sessions, old codes and stale portal counters only', async () => {
    // The server registers its jobs when they are on (they are off in this test app).
    registerJobs(t.storage);
    expect(periodicJobs()).toContainEqual([PORTAL_PURGE, 60 * 60_000]);
    const live = await createPortalSession(t.db, { email: 'purge-live@example.test' });
    const dead = await createPortalSession(t.db, { email: 'purge-dead@example.test' });
    await t.db
      .update(portalSessions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(portalSessions.email, 'purge-dead@example.test'));
    await t.db.insert(portalCodes).values([
      { email: 'purge-old@example.test', codeHash: 'x', expiresAt: sql`now() - interval '2 days'` },
      { email: 'purge-new@example.test', codeHash: 'y', expiresAt: sql`now() + interval '5 minutes'` },
    ]);
    await t.db.insert(idpAttempts).values([
      { key: 'portal:purge-test:old', count: 1, windowStartedAt: sql`now() - interval '2 days'` },
      { key: 'portal:purge-test:new', count: 1 },
      {
        key: 'portal:purge-test:locked',
        count: 0,
        windowStartedAt: sql`now() - interval '2 days'`,
        lockedUntil: sql`now() + interval '1 hour'`,
      },
    ]);
    const job = registeredJob(PORTAL_PURGE);
    if (!job) throw new Error('not registered');
    const silent = { info() {}, warn() {}, error() {} };
    await job.handler({} as never, { db: t.db, config: t.config, log: silent } as unknown as TJobContext);

    const sessions = await t.db.select({ email: portalSessions.email }).from(portalSessions);
    expect(sessions.map((s) => s.email)).toContain('purge-live@example.test');
    expect(sessions.map((s) => s.email)).not.toContain('purge-dead@example.test');
    expect(live.token).not.toBe(dead.token);
    const codes = (await t.db.select({ email: portalCodes.email }).from(portalCodes)).map((c) => c.email);
    expect(codes).toContain('purge-new@example.test');
    expect(codes).not.toContain('purge-old@example.test');
    const counters = await t.db
      .select({ key: idpAttempts.key })
      .from(idpAttempts)
      .where(like(idpAttempts.key, 'portal:purge-test:%'));
    expect(counters.map((c) => c.key).sort()).toEqual(['portal:purge-test:locked', 'portal:purge-test:new']);
  });
});

describe('behind https', () => {
  it('marks both portal cookies secure', async () => {
    const https = await createIdpTestApp({ PUBLIC_URL: 'https://portal.example.test' });
    try {
      const f = await https.seedFirm('Secure');
      const [client] = await https.db
        .insert(clients)
        .values({ orgId: f.org.id, code: 'S', name: 'S Ltd' })
        .returning();
      if (!client) throw new Error('client not created');
      await https.client(f.owner.token).clientUsers.invite.mutate({
        clientId: client.id,
        email: 'secure@example.test',
        name: 'Sec',
        phone: '',
      });
      const link = (await https.readOutbox()).find((m) => m.to === 'secure@example.test')?.notes.link ?? '';
      expect(link.startsWith('https://portal.example.test/clientportal/auth/invite/')).toBe(true);
      const res = await fetch(`${https.url}/api/trpc/clientPortalAuth.acceptInvite`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ json: { key: link.split('/invite/')[1] } }),
      });
      expect(res.status).toBe(200);
      const cookies = res.headers.getSetCookie();
      expect(cookies).toHaveLength(2);
      for (const cookie of cookies) expect(cookie).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });
});
