import { TRPCError } from '@trpc/server';
import { and, arrayContains, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { TPage } from '../../../domain/pagination';
import {
  type TRevealPurpose,
  type TVaultEntryChanges,
  type TVaultEntryInput,
  type TVaultListQuery,
  VAULT_MASK,
} from '../../../domain/vault';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, members, vaultEntries } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';
import { audit, diff } from '../system-log';
import { open, seal, type TKeyring, VaultCryptoError, VaultKeyMissingError } from './crypto';

type TVaultScope = Pick<TScope, 'orgId' | 'memberId' | 'isOwner' | 'permissions' | 'assignedClientsOnly'>;

/** What binds a sealed password to its row: copied to another row or firm, it no longer opens. */
export const sealContext = (orgId: string, entryId: string) => `${orgId}:${entryId}`;

/**
 * A role limited to its assigned clients sees the firm-wide entries and those of the clients it is
 * on the team of; the others do not exist for it.
 */
function assignedOnly(scope: TVaultScope): SQL | undefined {
  const onTeam = clientVisibility(scope, vaultEntries.clientId);
  return onTeam && sql`(${vaultEntries.clientId} is null or ${onTeam})`;
}

const visible = (scope: TVaultScope, ...more: (SQL | undefined)[]) =>
  and(eq(vaultEntries.orgId, scope.orgId), assignedOnly(scope), ...more);

/** The columns a list or a detail may carry: never the password nor any part of its seal. */
const publicColumns = {
  id: vaultEntries.id,
  title: vaultEntries.title,
  url: vaultEntries.url,
  username: vaultEntries.username,
  tags: vaultEntries.tags,
  clientId: vaultEntries.clientId,
  clientName: clients.name,
  clientCode: clients.code,
  passwordChangedAt: vaultEntries.passwordChangedAt,
  passwordChangedById: vaultEntries.passwordChangedBy,
  passwordChangedByName: memberName,
  createdAt: vaultEntries.createdAt,
  updatedAt: vaultEntries.updatedAt,
};

type TPublicRow = {
  id: string;
  title: string;
  url: string | null;
  username: string | null;
  tags: string[];
  clientId: string | null;
  clientName: string | null;
  clientCode: string | null;
  passwordChangedAt: Date;
  passwordChangedById: string | null;
  passwordChangedByName: string | null;
  createdAt: Date;
  updatedAt: Date;
};

function shapeRow(r: TPublicRow) {
  return {
    id: r.id,
    title: r.title,
    url: r.url,
    username: r.username,
    tags: r.tags,
    client: r.clientId ? { id: r.clientId, name: r.clientName ?? '', code: r.clientCode ?? '' } : null,
    passwordChangedAt: r.passwordChangedAt,
    passwordChangedBy: r.passwordChangedById
      ? { id: r.passwordChangedById, name: r.passwordChangedByName ?? '' }
      : null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
export type TVaultRow = ReturnType<typeof shapeRow>;

function selectPublic(db: TExecutor) {
  return db
    .select(publicColumns)
    .from(vaultEntries)
    .leftJoin(clients, and(eq(clients.orgId, vaultEntries.orgId), eq(clients.id, vaultEntries.clientId)))
    .leftJoin(
      members,
      and(eq(members.orgId, vaultEntries.orgId), eq(members.id, vaultEntries.passwordChangedBy)),
    );
}

export async function listEntries(
  db: TExecutor,
  scope: TVaultScope,
  input: TVaultListQuery,
): Promise<TPage<TVaultRow>> {
  const where: SQL[] = [];
  if (input.client === 'firm') where.push(isNull(vaultEntries.clientId));
  else if (input.client) where.push(eq(vaultEntries.clientId, input.client));
  if (input.tag) where.push(arrayContains(vaultEntries.tags, [input.tag]));
  const term = input.search?.toLowerCase();
  if (term) {
    // Substring on title, username and URL; longer words also forgive a typo (trigram index).
    const substring = sql`${vaultEntries.searchText} ilike ${escapeLike(term)}`;
    where.push(term.length >= 3 ? sql`(${substring} or ${term} <% ${vaultEntries.searchText})` : substring);
  }
  const filter = visible(scope, ...where);
  const column = {
    title: vaultEntries.title,
    updatedAt: vaultEntries.updatedAt,
    passwordChangedAt: vaultEntries.passwordChangedAt,
  }[input.sort];
  const dir = input.direction === 'asc' ? asc : desc;
  const [rows, [totals]] = await Promise.all([
    selectPublic(db)
      .where(filter)
      .orderBy(dir(column), dir(vaultEntries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(vaultEntries).where(filter),
  ]);
  return { rows: rows.map(shapeRow), total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

/** The entry, if this member may see it; NOT_FOUND for another firm's, a missing or an unassigned one. */
async function visibleEntry(db: TExecutor, scope: TVaultScope, id: string, lock = false) {
  const query = db
    .select()
    .from(vaultEntries)
    .where(visible(scope, eq(vaultEntries.id, id)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Vault entry not found' });
  return row;
}

export async function getEntry(db: TExecutor, scope: TVaultScope, id: string) {
  await visibleEntry(db, scope, id);
  const [row] = await selectPublic(db)
    .where(and(eq(vaultEntries.orgId, scope.orgId), eq(vaultEntries.id, id)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Vault entry not found' });
  const [extra] = await db
    .select({ notes: vaultEntries.notes, createdById: vaultEntries.createdBy, createdByName: memberName })
    .from(vaultEntries)
    .leftJoin(members, and(eq(members.orgId, vaultEntries.orgId), eq(members.id, vaultEntries.createdBy)))
    .where(and(eq(vaultEntries.orgId, scope.orgId), eq(vaultEntries.id, id)));
  return {
    ...shapeRow(row),
    notes: extra?.notes ?? null,
    createdBy: extra?.createdById ? { id: extra.createdById, name: extra.createdByName } : null,
  };
}
export type TVaultDetail = Awaited<ReturnType<typeof getEntry>>;

function sealedColumns(keyring: TKeyring, orgId: string, id: string, password: string) {
  const sealed = seal(keyring, password, sealContext(orgId, id));
  return {
    passwordCiphertext: sealed.ciphertext,
    passwordIv: sealed.iv,
    passwordTag: sealed.tag,
    dataKeyWrapped: sealed.wrappedKey,
    keyId: sealed.keyId,
  };
}

const whose = (client: { name: string } | null) => (client ? ` of ${client.name}` : ' (firm-wide)');

export async function createEntry(
  db: TDb,
  keyring: TKeyring,
  scope: TScope,
  input: TVaultEntryInput,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = input.clientId ? await visibleClient(tx, scope, input.clientId) : null;
    const id = uuidv7();
    const { password, ...fields } = input;
    const [created] = await tx
      .insert(vaultEntries)
      .values({
        id,
        orgId: scope.orgId,
        ...fields,
        ...sealedColumns(keyring, scope.orgId, id, password),
        passwordChangedAt: new Date(),
        passwordChangedBy: scope.memberId,
        createdBy: scope.memberId,
      })
      .returning({ id: vaultEntries.id, title: vaultEntries.title });
    if (!created) throw new Error('vault entry not created');
    await audit(tx, actorOf(scope, meta), {
      action: 'vault.create',
      recordType: 'vault_entry',
      recordId: created.id,
      summary: `Added the password “${created.title}”${whose(client)}`,
      changes: { password: { from: null, to: VAULT_MASK } },
    });
    return created;
  });
}

export async function updateEntry(
  db: TDb,
  keyring: TKeyring,
  scope: TScope,
  id: string,
  input: TVaultEntryChanges,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await visibleEntry(tx, scope, id, true);
    const client = input.clientId ? await visibleClient(tx, scope, input.clientId) : null;
    const { password, ...fields } = input;
    const changes: Record<string, { from: unknown; to: unknown }> = {
      ...diff(before as unknown as Record<string, unknown>, fields),
    };
    const now = new Date();
    const passwordColumns = password
      ? {
          ...sealedColumns(keyring, scope.orgId, id, password),
          passwordChangedAt: now,
          passwordChangedBy: scope.memberId,
        }
      : {};
    // The old and new passwords are never compared in the log: only that it changed.
    if (password) changes.password = { from: VAULT_MASK, to: VAULT_MASK };
    if (!Object.keys(changes).length) return { id, changed: false };
    await tx
      .update(vaultEntries)
      .set({ ...fields, ...passwordColumns, updatedAt: now })
      .where(and(eq(vaultEntries.orgId, scope.orgId), eq(vaultEntries.id, id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'vault.update',
      recordType: 'vault_entry',
      recordId: id,
      summary: `Updated the password entry “${input.title}”${whose(client)}: ${Object.keys(changes).join(', ')}`,
      changes,
    });
    return { id, changed: true };
  });
}

export async function deleteEntry(db: TDb, scope: TScope, id: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const entry = await visibleEntry(tx, scope, id, true);
    await tx.delete(vaultEntries).where(and(eq(vaultEntries.orgId, scope.orgId), eq(vaultEntries.id, id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'vault.delete',
      recordType: 'vault_entry',
      recordId: id,
      summary: `Deleted the password entry “${entry.title}”`,
      changes: { title: { from: entry.title, to: null } },
    });
    return { id };
  });
}

/** The plaintext, for a member with vault.reveal; each reveal (or copy) writes its own log row. */
export async function revealPassword(
  db: TDb,
  keyring: TKeyring,
  scope: TScope,
  input: { id: string; purpose: TRevealPurpose },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const entry = await visibleEntry(tx, scope, input.id);
    let password: string;
    try {
      password = open(
        keyring,
        {
          ciphertext: entry.passwordCiphertext,
          iv: entry.passwordIv,
          tag: entry.passwordTag,
          wrappedKey: entry.dataKeyWrapped,
          keyId: entry.keyId,
        },
        sealContext(scope.orgId, entry.id),
      );
    } catch (error) {
      if (error instanceof VaultKeyMissingError) {
        throw new TRPCError({
          code: 'SERVICE_UNAVAILABLE',
          message: `This password was encrypted with the vault key “${error.keyId}”, which the server no longer has: ask your administrator`,
        });
      }
      if (error instanceof VaultCryptoError) {
        throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: error.message, cause: error });
      }
      throw error;
    }
    const copied = input.purpose === 'copy';
    await audit(tx, actorOf(scope, meta), {
      action: copied ? 'vault.copy' : 'vault.reveal',
      recordType: 'vault_entry',
      recordId: entry.id,
      summary: `${copied ? 'Copied' : 'Revealed'} the password of “${entry.title}”`,
    });
    return { id: entry.id, password };
  });
}

/** The clients this member may file an entry under, matching a search, for the form's picker. */
export async function clientOptions(db: TExecutor, scope: TVaultScope, search?: string) {
  const where: (SQL | undefined)[] = [
    eq(clients.orgId, scope.orgId),
    isNull(clients.archivedAt),
    clientVisibility(scope),
  ];
  const term = search?.toLowerCase();
  if (term) where.push(sql`${clients.searchText} ilike ${escapeLike(term)}`);
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(and(...where))
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(20);
}

/** The filters' choices: the clients that have entries this member sees, and the tags in use. */
export async function listFacets(db: TExecutor, scope: TVaultScope) {
  const filter = visible(scope);
  const [clientRows, tagRows] = await Promise.all([
    db
      .selectDistinct({ id: clients.id, name: clients.name, code: clients.code })
      .from(vaultEntries)
      .innerJoin(clients, and(eq(clients.orgId, vaultEntries.orgId), eq(clients.id, vaultEntries.clientId)))
      .where(filter)
      .orderBy(asc(clients.name), asc(clients.id))
      .limit(500),
    db
      .selectDistinct({ tag: sql<string>`unnest(${vaultEntries.tags})`.as('tag') })
      .from(vaultEntries)
      .where(filter)
      .orderBy(sql`tag`)
      .limit(500),
  ]);
  return { clients: clientRows, tags: tagRows.map((r) => r.tag) };
}

/**
 * An entry's password in the clear, for the whole-firm export (which the owner asked for with their
 * password). The export logs that it took them; nothing else may call this.
 */
export function openEntryPassword(
  keyring: TKeyring,
  entry: Pick<
    typeof vaultEntries.$inferSelect,
    'id' | 'orgId' | 'passwordCiphertext' | 'passwordIv' | 'passwordTag' | 'dataKeyWrapped' | 'keyId'
  >,
): string {
  return open(
    keyring,
    {
      ciphertext: entry.passwordCiphertext,
      iv: entry.passwordIv,
      tag: entry.passwordTag,
      wrappedKey: entry.dataKeyWrapped,
      keyId: entry.keyId,
    },
    sealContext(entry.orgId, entry.id),
  );
}
