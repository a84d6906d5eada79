import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  PORTAL_CODE_LENGTH,
  PORTAL_CODE_MAX_ATTEMPTS,
  PORTAL_CODE_TTL_MINUTES,
  PORTAL_MESSAGES,
  type TPortalCodeVerify,
} from '../../../domain/client-users';
import { createPortalSession, type TRequestMeta } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { clientUserClients, clientUsers, portalCodes } from '../../db/schema';
import { type TLimit, takeAttempt } from '../../idp/attempts';
import type { TMailer } from '../../mail';
import { audit } from '../system-log';
import { portalCodeMessage } from './mail';

// Email one-time codes for the portal. Codes are hashed at rest, single-use, short-lived and die
// after PORTAL_CODE_MAX_ATTEMPTS wrong guesses (counted under the code row's lock); asking for codes
// is rate-limited per email (it protects the inbox) and per IP, trying them per IP only — so
// someone else's guessing spends a code but never keeps its owner out: the owner asks for a new
// one. The counters live in the database (several instances share them) and each request takes
// its slot in one statement before anything is checked or mailed (see takeAttempt).

export const PORTAL_LIMITS = {
  sendPerEmail: { limit: 5, windowS: 15 * 60, lockS: 15 * 60 },
  sendPerIp: { limit: 20, windowS: 15 * 60, lockS: 15 * 60 },
  verifyPerIp: { limit: 30, windowS: 15 * 60, lockS: 15 * 60 },
} satisfies Record<string, TLimit>;

const keys = {
  sendEmail: (email: string) => `portal:code-send:email:${email}`,
  sendIp: (ip: string) => `portal:code-send:ip:${ip}`,
  verifyIp: (ip: string) => `portal:code-verify:ip:${ip}`,
};

const hashCode = (email: string, code: string) => createHash('sha256').update(`${email}:${code}`).digest();

/**
 * Takes a slot on each counter in turn (each counted and decided in one statement); the first one
 * refused answers TOO_MANY_REQUESTS with its wait, and the counters after it are left alone.
 */
async function throttle(
  db: TDb,
  pairs: readonly (readonly [string, TLimit])[],
  message: (minutes: number) => string,
): Promise<void> {
  for (const [key, limit] of pairs) {
    const slot = await takeAttempt(db, key, limit);
    if (!slot.allowed) {
      const minutes = Math.max(1, Math.ceil((slot.retryS || limit.lockS) / 60));
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: message(minutes) });
    }
  }
}

type TLog = { error(obj: object, msg: string): void };

/**
 * Mails a code when the email belongs to an active client user; answers the same either way, and
 * the mail goes out after the answer, so neither the words nor the timing say who exists.
 */
export async function requestPortalCode(
  db: TDb,
  deps: { mailer: TMailer; config: Pick<TConfig, 'publicUrl'>; log: TLog },
  email: string,
  meta: TRequestMeta,
) {
  await throttle(
    db,
    [
      // The address first: a flood from one address does not use up the person's own requests.
      [keys.sendIp(meta.ip), PORTAL_LIMITS.sendPerIp],
      [keys.sendEmail(email), PORTAL_LIMITS.sendPerEmail],
    ],
    PORTAL_MESSAGES.tooManyCodeRequests,
  );
  // Only someone the portal would let in: active, and acting for at least one client.
  const [user] = await db
    .select({ id: clientUsers.id })
    .from(clientUsers)
    .innerJoin(
      clientUserClients,
      and(eq(clientUserClients.orgId, clientUsers.orgId), eq(clientUserClients.clientUserId, clientUsers.id)),
    )
    .where(and(eq(clientUsers.email, email), eq(clientUsers.status, 'active')))
    .limit(1);
  if (user) {
    const code = String(randomInt(0, 10 ** PORTAL_CODE_LENGTH)).padStart(PORTAL_CODE_LENGTH, '0');
    await db.transaction(async (tx) => {
      // One request per email at a time (a burst would otherwise leave several codes live).
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`portal-code:${email}`}, 0))`);
      // Only the newest code works: an older one still in a mailbox is dead.
      await tx
        .update(portalCodes)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(portalCodes.email, email), isNull(portalCodes.consumedAt)));
      await tx.insert(portalCodes).values({
        email,
        codeHash: hashCode(email, code).toString('hex'),
        expiresAt: sql`now() + make_interval(mins => ${PORTAL_CODE_TTL_MINUTES})`,
      });
    });
    // Sent now, after the answer, not queued: see portalCodeMessage.
    deps.mailer
      .send(portalCodeMessage(deps.config, { to: email, code, minutes: PORTAL_CODE_TTL_MINUTES }))
      .catch((error: unknown) => deps.log.error({ err: error, to: email }, 'portal sign-in code not sent'));
  }
  return { message: PORTAL_MESSAGES.codeSent(email) };
}

type TCheck = { ok: true } | { ok: false; message: string };

/** Checks the newest live code; a wrong guess is counted (and kills the code at the limit). */
async function checkCode(db: TDb, email: string, code: string): Promise<TCheck> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(portalCodes)
      .where(
        and(
          eq(portalCodes.email, email),
          isNull(portalCodes.consumedAt),
          gt(portalCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(portalCodes.createdAt))
      .limit(1)
      .for('update');
    if (!row) return { ok: false, message: PORTAL_MESSAGES.codeDead };
    const expected = Buffer.from(row.codeHash, 'hex');
    const given = hashCode(email, code);
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      await tx.update(portalCodes).set({ consumedAt: sql`now()` }).where(eq(portalCodes.id, row.id));
      return { ok: true };
    }
    const attempts = row.attempts + 1;
    const left = PORTAL_CODE_MAX_ATTEMPTS - attempts;
    await tx
      .update(portalCodes)
      .set({ attempts, ...(left <= 0 ? { consumedAt: sql`now()` } : {}) })
      .where(eq(portalCodes.id, row.id));
    return { ok: false, message: left <= 0 ? PORTAL_MESSAGES.codeDead : PORTAL_MESSAGES.codeWrong(left) };
  });
}

/** A right code starts a session for the email (every firm where it is an active client user). */
export async function verifyPortalCode(db: TDb, input: Required<TPortalCodeVerify>, meta: TRequestMeta) {
  const { email, code } = input;
  // Per address only: the code's own PORTAL_CODE_MAX_ATTEMPTS bounds the guesses at one email.
  await throttle(
    db,
    [[keys.verifyIp(meta.ip), PORTAL_LIMITS.verifyPerIp]],
    PORTAL_MESSAGES.tooManySignInAttempts,
  );
  const check = await checkCode(db, email, code);
  if (!check.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: check.message });
  return db.transaction(async (tx) => {
    const users = await tx
      .update(clientUsers)
      .set({ lastSignInAt: sql`now()` })
      .where(and(eq(clientUsers.email, email), eq(clientUsers.status, 'active')))
      .returning({ id: clientUsers.id, orgId: clientUsers.orgId, name: clientUsers.name });
    if (users.length === 0) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'This email no longer has access to a client portal. Contact your firm.',
      });
    }
    for (const user of users) {
      await audit(
        tx,
        { kind: 'client_user', orgId: user.orgId, clientUserId: user.id, meta },
        {
          action: 'client_user.sign_in',
          recordType: 'client_user',
          recordId: user.id,
          summary: `${user.name} (${email}) signed in to the portal`,
        },
      );
    }
    const session = await createPortalSession(tx, { email, ip: meta.ip, userAgent: meta.userAgent });
    return { ...session, email, users: users.map((u) => u.id) };
  });
}

/** For the purge: codes a day past their expiry are history. */
export async function purgePortalCodes(db: TDb) {
  await db.delete(portalCodes).where(sql`${portalCodes.expiresAt} < now() - interval '1 day'`);
}

export const portalAttemptKeysFor = keys;
