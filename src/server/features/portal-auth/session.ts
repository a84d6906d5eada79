import { and, isNull, like, lt, or, sql } from 'drizzle-orm';
import type { TRequestMeta } from '../../auth';
import { purgePortalSessions, resolvePortalSession, revokePortalSession } from '../../auth';
import type { TDb } from '../../db/client';
import { idpAttempts } from '../../db/schema';
import { audit } from '../system-log';
import { purgePortalCodes } from './codes';

/** Ends the session the cookie carries (if it is still live, each firm's log says so). */
export async function signOutPortal(db: TDb, token: string | undefined, meta: TRequestMeta) {
  const session = await resolvePortalSession(db, token);
  await db.transaction(async (tx) => {
    await revokePortalSession(tx, token);
    for (const user of session?.users ?? []) {
      await audit(
        tx,
        { kind: 'client_user', orgId: user.orgId, clientUserId: user.clientUserId, meta },
        {
          action: 'client_user.sign_out',
          recordType: 'client_user',
          recordId: user.clientUserId,
          summary: `${user.name} (${session?.email}) signed out of the portal`,
        },
      );
    }
  });
}

/**
 * The periodic clean-up: expired and long-revoked sessions, codes a day past expiry, and the
 * portal's rate-limit counters once their window is long over and no lock holds.
 */
export async function purgePortalAuth(db: TDb) {
  await purgePortalSessions(db);
  await purgePortalCodes(db);
  await db
    .delete(idpAttempts)
    .where(
      and(
        like(idpAttempts.key, 'portal:%'),
        lt(idpAttempts.windowStartedAt, sql`now() - interval '1 day'`),
        or(isNull(idpAttempts.lockedUntil), lt(idpAttempts.lockedUntil, sql`now()`)),
      ),
    );
}
