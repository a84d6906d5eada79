import { createHash, randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, desc, eq, sql } from 'drizzle-orm';
import { API_KEY_PREFIX, apiKeyState, type TApiKeyCreate } from '../../../domain/api-keys';
import { hasPermission, type TPermission } from '../../../domain/permissions';
import { roleGrants } from '../../../domain/roles';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { apiKeys, members, roles } from '../../db/schema';
import type { TStaffIdentity } from '../../idp/staff-auth';
import { audit } from '../system-log';

// API keys: a 32-byte random secret shown once; only its SHA-256 is stored (a secret with this
// much entropy needs no slow hash: nobody can guess their way to a preimage).

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

const NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'This API key does not exist' });

export async function listApiKeys(db: TDb, scope: TScope) {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      roleId: apiKeys.roleId,
      roleName: roles.name,
      createdAt: apiKeys.createdAt,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      createdByName: sql<string>`coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${members.email})`,
    })
    .from(apiKeys)
    .innerJoin(roles, and(eq(roles.orgId, apiKeys.orgId), eq(roles.id, apiKeys.roleId)))
    .innerJoin(members, and(eq(members.orgId, apiKeys.orgId), eq(members.id, apiKeys.createdById)))
    .where(eq(apiKeys.orgId, scope.orgId))
    .orderBy(desc(apiKeys.createdAt))
    .limit(500);
  return rows.map((row) => ({ ...row, state: apiKeyState(row) }));
}

/** Makes a key; the secret is in this answer and nowhere else, ever. */
export async function createApiKey(db: TDb, scope: TScope, input: TApiKeyCreate, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [role] = await tx
      .select({ id: roles.id, name: roles.name, permissions: roles.permissions })
      .from(roles)
      .where(and(eq(roles.orgId, scope.orgId), eq(roles.id, input.roleId)));
    if (!role) throw new TRPCError({ code: 'NOT_FOUND', message: 'This role does not exist' });
    // A key never holds a right its maker lacks (an admin cannot mint an owner's key).
    const missing = roleGrants(role).filter((p) => !hasPermission(scope, p as TPermission));
    if (missing.length > 0) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: `You cannot give a key rights you do not have (${missing.slice(0, 3).join(', ')})`,
      });
    }
    const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [key] = await tx
      .insert(apiKeys)
      .values({
        orgId: scope.orgId,
        name: input.name,
        prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
        secretHash: hashSecret(secret),
        roleId: role.id,
        createdById: scope.memberId,
        expiresAt: input.expiresAt ?? null,
      })
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
    if (!key) throw new Error('the key was not stored');
    await audit(tx, actorOf(scope, meta), {
      action: 'apiKey.create',
      recordType: 'api_key',
      recordId: key.id,
      summary: `Created the API key ${key.name} with the role ${role.name}`,
    });
    return { ...key, secret };
  });
}

export async function revokeApiKey(db: TDb, scope: TScope, apiKeyId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [key] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
      .where(and(eq(apiKeys.orgId, scope.orgId), eq(apiKeys.id, apiKeyId)))
      .returning({ id: apiKeys.id, name: apiKeys.name });
    if (!key) throw NOT_FOUND();
    await audit(tx, actorOf(scope, meta), {
      action: 'apiKey.revoke',
      recordType: 'api_key',
      recordId: key.id,
      summary: `Revoked the API key ${key.name}`,
    });
    return { ok: true as const };
  });
}

export type TApiKeyCaller = { keyId: string; keyName: string; identity: TStaffIdentity };

/**
 * The caller a secret stands for, or null (unknown, revoked, expired, or its maker no longer an
 * active member). The key acts as its maker with the key's role: never as an owner, so the role's
 * rights are all it has; a role limited to assigned clients sees the maker's assigned clients.
 */
export async function resolveApiKey(db: TDb, secret: string): Promise<TApiKeyCaller | null> {
  if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return null;
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      orgId: apiKeys.orgId,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      memberId: members.id,
      memberStatus: members.status,
      sub: members.sub,
      roleName: roles.name,
      permissions: roles.permissions,
      assignedClientsOnly: roles.assignedClientsOnly,
    })
    .from(apiKeys)
    .innerJoin(roles, and(eq(roles.orgId, apiKeys.orgId), eq(roles.id, apiKeys.roleId)))
    .innerJoin(members, and(eq(members.orgId, apiKeys.orgId), eq(members.id, apiKeys.createdById)))
    .where(eq(apiKeys.secretHash, hashSecret(secret)));
  if (!row || apiKeyState(row) !== 'active') return null;
  // "Last used" to the minute: one write a minute per key at most, not awaited.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    db.update(apiKeys)
      .set({ lastUsedAt: new Date() })
      .where(and(eq(apiKeys.orgId, row.orgId), eq(apiKeys.id, row.id)))
      .catch(() => {});
  }
  return {
    keyId: row.id,
    keyName: row.name,
    identity: {
      sub: row.sub ?? `api-key:${row.id}`,
      username: `api-key:${row.name}`,
      accessToken: '',
      originJti: null,
      member: {
        memberId: row.memberId,
        orgId: row.orgId,
        isOwner: false,
        status: row.memberStatus,
        permissions: roleGrants({ name: row.roleName, permissions: row.permissions }),
        assignedClientsOnly: row.assignedClientsOnly,
        mfaOverdue: false,
      },
    },
  };
}
