import { createHash, randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, exists, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import {
  PORTAL_INVITE_TTL_DAYS,
  type TClientUserInvite,
  type TClientUserListQuery,
  type TClientUserRef,
  type TClientUserStatus,
} from '../../../domain/client-users';
import type { TPage } from '../../../domain/pagination';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { clientUserClients, clientUserInvites, clientUsers, orgs } from '../../db/schema';
import type { TMailer } from '../../mail/mailer';
import { revokePortalSessionsOf } from '../../portal/session';
import type { TRequestMeta } from '../../trpc/context';
import type { TScope } from '../../trpc/procedures';
import { visibleClient } from '../clients/service';
import { audit } from '../system-log/service';
import { sendPortalAccessMail, sendPortalInviteMail } from './mail';

// The staff side of the portal's people (/clients/{id}/client-users). Every call starts from a
// client this member may see (visibleClient: the firm, and "assigned clients only"); a client user
// is reached only through its link to that client, so another firm's or another client's person
// answers NOT_FOUND.

export const hashInviteKey = (key: string) => createHash('sha256').update(key).digest('hex');
const newKey = () => randomBytes(32).toString('base64url');
const inviteExpiry = (now: Date) => new Date(now.getTime() + PORTAL_INVITE_TTL_DAYS * 24 * 60 * 60_000);

/** A unique-index violation (code 23505), wherever the driver or drizzle put it in the cause chain. */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Two invitations of one person to one client at the same moment: the open-invite index keeps one. */
const conflictOnRace =
  (email: string) =>
  (error: unknown): never => {
    if (isUniqueViolation(error)) {
      throw new TRPCError({ code: 'CONFLICT', message: `${email} was invited a moment ago` });
    }
    throw error;
  };

export type TClientUserRow = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  status: TClientUserStatus;
  lastSignInAt: Date | null;
  /** The open invitation to this client, if any (expired ones too: they can be resent). */
  invite: { sentAt: Date; expiresAt: Date; expired: boolean } | null;
};

const openInviteOn = and(
  eq(clientUserInvites.orgId, clientUserClients.orgId),
  eq(clientUserInvites.clientUserId, clientUserClients.clientUserId),
  eq(clientUserInvites.clientId, clientUserClients.clientId),
  isNull(clientUserInvites.acceptedAt),
  isNull(clientUserInvites.revokedAt),
);

export async function listClientUsers(
  db: TExecutor,
  scope: TScope,
  input: TClientUserListQuery,
): Promise<TPage<TClientUserRow>> {
  await visibleClient(db, scope, input.clientId);
  const where: SQL[] = [
    eq(clientUserClients.orgId, scope.orgId),
    eq(clientUserClients.clientId, input.clientId),
  ];
  if (input.search) {
    const term = `%${input.search.replace(/[\\%_]/g, '\\$&')}%`;
    const match = or(ilike(clientUsers.name, term), ilike(clientUsers.email, term));
    if (match) where.push(match);
  }
  const base = () =>
    db
      .select({
        id: clientUsers.id,
        name: clientUsers.name,
        email: clientUsers.email,
        phone: clientUsers.phone,
        status: clientUsers.status,
        lastSignInAt: clientUsers.lastSignInAt,
        sentAt: clientUserInvites.lastSentAt,
        expiresAt: clientUserInvites.expiresAt,
      })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .leftJoin(clientUserInvites, openInviteOn);
  const [rows, [totals]] = await Promise.all([
    base()
      .where(and(...where))
      .orderBy(asc(clientUsers.name), asc(clientUsers.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db
      .select({ total: count() })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .where(and(...where)),
  ]);
  const now = Date.now();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      status: r.status,
      lastSignInAt: r.lastSignInAt,
      invite:
        r.sentAt && r.expiresAt
          ? { sentAt: r.sentAt, expiresAt: r.expiresAt, expired: r.expiresAt.getTime() <= now }
          : null,
    })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

type TMailDeps = { mailer: TMailer; config: Pick<TConfig, 'publicUrl'> };
type TMail =
  | { kind: 'invite'; to: string; name: string; key: string; expiresAt: Date }
  | { kind: 'access'; to: string; name: string };

const actorOf = (scope: TScope, meta: TRequestMeta) =>
  ({ kind: 'member', orgId: scope.orgId, memberId: scope.memberId, meta }) as const;

async function firmName(tx: TExecutor, orgId: string) {
  const [org] = await tx.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
  return org?.name ?? 'Your firm';
}

/** Mail goes out after the commit: a failed send leaves the invitation in place to resend. */
async function deliver(deps: TMailDeps, mail: TMail, firm: string, clientName: string) {
  try {
    if (mail.kind === 'invite') {
      await sendPortalInviteMail(deps.mailer, deps.config, { ...mail, firmName: firm, clientName });
    } else {
      await sendPortalAccessMail(deps.mailer, deps.config, { ...mail, firmName: firm, clientName });
    }
  } catch {
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The change is saved but the email could not be sent. Try “Resend” in a moment.',
    });
  }
}

/** Creates the open invitation for (user, client), or renews it with a new key and expiry. */
async function upsertInvite(
  tx: TExecutor,
  scope: TScope,
  clientUserId: string,
  clientId: string,
  now: Date,
): Promise<{ id: string; key: string; expiresAt: Date; renewed: boolean }> {
  const key = newKey();
  const expiresAt = inviteExpiry(now);
  const [open] = await tx
    .select({ id: clientUserInvites.id })
    .from(clientUserInvites)
    .where(
      and(
        eq(clientUserInvites.orgId, scope.orgId),
        eq(clientUserInvites.clientUserId, clientUserId),
        eq(clientUserInvites.clientId, clientId),
        isNull(clientUserInvites.acceptedAt),
        isNull(clientUserInvites.revokedAt),
      ),
    )
    .for('update');
  if (open) {
    await tx
      .update(clientUserInvites)
      .set({ keyHash: hashInviteKey(key), expiresAt, lastSentAt: now, invitedBy: scope.memberId })
      .where(and(eq(clientUserInvites.orgId, scope.orgId), eq(clientUserInvites.id, open.id)));
    return { id: open.id, key, expiresAt, renewed: true };
  }
  const [created] = await tx
    .insert(clientUserInvites)
    .values({
      orgId: scope.orgId,
      clientUserId,
      clientId,
      keyHash: hashInviteKey(key),
      invitedBy: scope.memberId,
      expiresAt,
      lastSentAt: now,
    })
    .returning({ id: clientUserInvites.id });
  if (!created) throw new Error('invite not created');
  return { id: created.id, key, expiresAt, renewed: false };
}

async function link(tx: TExecutor, orgId: string, clientUserId: string, clientId: string) {
  const inserted = await tx
    .insert(clientUserClients)
    .values({ orgId, clientUserId, clientId })
    .onConflictDoNothing()
    .returning({ clientId: clientUserClients.clientId });
  return inserted.length > 0;
}

/**
 * Invites a person to one client. A new email becomes an invited client user; an email the firm
 * already knows is linked to this client: an active person gets access at once (and a short note),
 * an invited one a new or renewed invitation. A disabled person must be enabled first.
 */
export async function inviteClientUser(
  db: TDb,
  deps: TMailDeps,
  scope: TScope,
  input: TClientUserInvite,
  meta: TRequestMeta,
) {
  const now = new Date();
  const result = await db
    .transaction(async (tx) => {
      const client = await visibleClient(tx, scope, input.clientId, true);
      if (client.archivedAt) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${client.name} is archived: restore it before inviting anyone to its portal.`,
        });
      }
      const firm = await firmName(tx, scope.orgId);
      const actor = actorOf(scope, meta);
      const phone = input.phone || null;
      // Upsert on (org, email): two invitations of one address at once end on one person.
      const created = await tx
        .insert(clientUsers)
        .values({
          orgId: scope.orgId,
          email: input.email,
          name: input.name,
          phone,
          invitedBy: scope.memberId,
        })
        .onConflictDoNothing()
        .returning({ id: clientUsers.id });
      const isNew = created.length > 0;
      const [user] = await tx
        .select()
        .from(clientUsers)
        .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.email, input.email)))
        .for('update');
      if (!user) throw new Error('client user not created');
      if (user.status === 'disabled') {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${input.email} has been disabled in the portal: enable them first, then add them to ${client.name}.`,
        });
      }
      const linked = await link(tx, scope.orgId, user.id, client.id);
      if (user.status === 'active') {
        if (!linked) {
          throw new TRPCError({
            code: 'CONFLICT',
            message: `${user.name} already has access to ${client.name}`,
          });
        }
        await audit(tx, actor, {
          action: 'client_user.link',
          recordType: 'client_user',
          recordId: user.id,
          summary: `Gave ${user.name} (${user.email}) portal access to ${client.name}`,
          changes: { client: { from: null, to: client.name } },
        });
        return {
          user,
          firm,
          clientName: client.name,
          mail: { kind: 'access', to: user.email, name: user.name } as TMail,
        };
      }
      // Invited, not yet in: the latest name and phone the firm typed are the best it knows.
      if (user.name !== input.name || user.phone !== phone) {
        await tx
          .update(clientUsers)
          .set({ name: input.name, phone })
          .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.id, user.id)));
      }
      const invite = await upsertInvite(tx, scope, user.id, client.id, now);
      await audit(tx, actor, {
        action: invite.renewed ? 'client_user.invite_renew' : 'client_user.invite',
        recordType: 'client_user',
        recordId: user.id,
        summary: `${invite.renewed ? 'Invited again' : 'Invited'} ${input.name} (${input.email}) to the portal for ${client.name}`,
        changes: {
          ...(isNew ? { email: { from: null, to: input.email }, name: { from: null, to: input.name } } : {}),
          client: { from: null, to: client.name },
          expiresAt: { from: null, to: invite.expiresAt.toISOString() },
        },
      });
      return {
        user: { ...user, name: input.name },
        firm,
        clientName: client.name,
        mail: {
          kind: 'invite',
          to: user.email,
          name: input.name,
          key: invite.key,
          expiresAt: invite.expiresAt,
        } as TMail,
      };
    })
    .catch(conflictOnRace(input.email));
  await deliver(deps, result.mail, result.firm, result.clientName);
  return { id: result.user.id, email: result.user.email, outcome: result.mail.kind };
}

/** The client (visible to this member) and one of its client users, locked; NOT_FOUND otherwise. */
async function linkedUser(tx: TExecutor, scope: TScope, ref: TClientUserRef) {
  const client = await visibleClient(tx, scope, ref.clientId, true);
  const [user] = await tx
    .select()
    .from(clientUsers)
    .where(
      and(
        eq(clientUsers.orgId, scope.orgId),
        eq(clientUsers.id, ref.clientUserId),
        exists(
          tx
            .select({ one: sql`1` })
            .from(clientUserClients)
            .where(
              and(
                eq(clientUserClients.orgId, clientUsers.orgId),
                eq(clientUserClients.clientUserId, clientUsers.id),
                eq(clientUserClients.clientId, client.id),
              ),
            ),
        ),
      ),
    )
    .for('update', { of: clientUsers });
  if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: 'Portal user not found' });
  return { client, user };
}

/** A new link (the old one stops working), valid for another PORTAL_INVITE_TTL_DAYS days. */
export async function resendClientUserInvite(
  db: TDb,
  deps: TMailDeps,
  scope: TScope,
  ref: TClientUserRef,
  meta: TRequestMeta,
) {
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const { client, user } = await linkedUser(tx, scope, ref);
    if (user.status === 'active') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} has already joined the portal` });
    }
    if (user.status === 'disabled') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} is disabled: enable them first` });
    }
    const invite = await upsertInvite(tx, scope, user.id, client.id, now);
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.invite_resend',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Sent the portal invitation for ${client.name} to ${user.email} again`,
      changes: { expiresAt: { from: null, to: invite.expiresAt.toISOString() } },
    });
    return { user, client, invite, firm: await firmName(tx, scope.orgId) };
  });
  await deliver(
    deps,
    {
      kind: 'invite',
      to: result.user.email,
      name: result.user.name,
      key: result.invite.key,
      expiresAt: result.invite.expiresAt,
    },
    result.firm,
    result.client.name,
  );
  return { id: result.user.id, expiresAt: result.invite.expiresAt };
}

/**
 * Takes a person's access to this client away: the link and any open invitation for it. Someone
 * left with no client of this firm has nothing to sign in for, so their sessions end too.
 */
export async function removeClientUser(db: TDb, scope: TScope, ref: TClientUserRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { client, user } = await linkedUser(tx, scope, ref);
    await tx
      .delete(clientUserClients)
      .where(
        and(
          eq(clientUserClients.orgId, scope.orgId),
          eq(clientUserClients.clientUserId, user.id),
          eq(clientUserClients.clientId, client.id),
        ),
      );
    await tx
      .update(clientUserInvites)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(clientUserInvites.orgId, scope.orgId),
          eq(clientUserInvites.clientUserId, user.id),
          eq(clientUserInvites.clientId, client.id),
          isNull(clientUserInvites.acceptedAt),
          isNull(clientUserInvites.revokedAt),
        ),
      );
    const [left] = await tx
      .select({ n: count() })
      .from(clientUserClients)
      .where(and(eq(clientUserClients.orgId, scope.orgId), eq(clientUserClients.clientUserId, user.id)));
    const none = (left?.n ?? 0) === 0;
    if (none) await revokePortalSessionsOf(tx, user.email);
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.remove',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Removed ${user.name}'s (${user.email}) portal access to ${client.name}`,
      changes: { client: { from: client.name, to: null } },
    });
    return { id: user.id, sessionsEnded: none };
  });
}

/** Turns a person's portal access off in this firm (every client) and ends their sessions at once. */
export async function disableClientUser(db: TDb, scope: TScope, ref: TClientUserRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { user } = await linkedUser(tx, scope, ref);
    if (user.status === 'disabled') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} is already disabled` });
    }
    await tx
      .update(clientUsers)
      .set({ status: 'disabled' })
      .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.id, user.id)));
    await revokePortalSessionsOf(tx, user.email);
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.disable',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Disabled ${user.name}'s (${user.email}) portal access`,
      changes: { status: { from: user.status, to: 'disabled' } },
    });
    return { id: user.id, status: 'disabled' as const };
  });
}

/** Back to where they were: active if they ever got in, otherwise still invited. */
export async function enableClientUser(db: TDb, scope: TScope, ref: TClientUserRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { user } = await linkedUser(tx, scope, ref);
    if (user.status !== 'disabled') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} is not disabled` });
    }
    const [accepted] = await tx
      .select({ id: clientUserInvites.id })
      .from(clientUserInvites)
      .where(
        and(
          eq(clientUserInvites.orgId, scope.orgId),
          eq(clientUserInvites.clientUserId, user.id),
          isNotNull(clientUserInvites.acceptedAt),
        ),
      )
      .limit(1);
    const status: TClientUserStatus = accepted || user.lastSignInAt ? 'active' : 'invited';
    await tx
      .update(clientUsers)
      .set({ status })
      .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.id, user.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.enable',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Enabled ${user.name}'s (${user.email}) portal access`,
      changes: { status: { from: 'disabled', to: status } },
    });
    return { id: user.id, status };
  });
}
