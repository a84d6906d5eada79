import { and, asc, eq, gt, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TDb } from '../../db/client';
import { firmSigningCerts, idpUsers, vaultServerSecrets } from '../../db/schema';
import { totpSealContext } from '../../idp/mfa';
import { type TKeyring, VaultCryptoError } from './crypto';
import { rewrapText, serverSecretContext, signingKeyContext } from './secret-box';

const BATCH = 200;

export type TRewrapFailure = { what: string; id: string; keyId: string; reason: string };

/** The master key id of a sealed text (`v1$keyId$…`), in SQL. */
const keyIdOf = (column: PgColumn) => sql<string>`split_part(${column}, '$', 2)`;
const staleUnder = (column: PgColumn, current: string): SQL =>
  and(isNotNull(column), sql`${keyIdOf(column)} <> ${current}`) as SQL;

function tryRewrap(
  keyring: TKeyring,
  text: string,
  context: string,
  failure: Omit<TRewrapFailure, 'reason'>,
) {
  try {
    return { text: rewrapText(keyring, text, context) };
  } catch (error) {
    if (!(error instanceof VaultCryptoError)) throw error;
    return { failure: { ...failure, reason: error.message } };
  }
}

/**
 * Re-wraps what the secret box sealed (features/vault/secret-box.ts) with the current master key:
 * the identity provider's TOTP keys (verified and pending), the server's own secrets (the
 * keyed-hash key) and the firms' document-signing keys. Like the vault entries, a batch per transaction, only rows under another key,
 * the ciphertexts unchanged, so running it again resumes. The provider knows nothing of firms, so
 * there is no firm's system log to write to: the command's output is the record.
 */
export async function rotateSealedSecrets(db: TDb, keyring: TKeyring) {
  const current = keyring.current.id;
  let rewrapped = 0;
  const failed: TRewrapFailure[] = [];

  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: idpUsers.id, totpSecret: idpUsers.totpSecret, pending: idpUsers.totpPendingSecret })
        .from(idpUsers)
        .where(
          and(
            gt(idpUsers.id, after),
            or(staleUnder(idpUsers.totpSecret, current), staleUnder(idpUsers.totpPendingSecret, current)),
          ),
        )
        .orderBy(asc(idpUsers.id))
        .limit(BATCH)
        .for('update');
      for (const row of rows) {
        const next: { totpSecret?: string; totpPendingSecret?: string } = {};
        for (const [field, text, what] of [
          ['totpSecret', row.totpSecret, 'TOTP key of user'],
          ['totpPendingSecret', row.pending, 'pending TOTP key of user'],
        ] as const) {
          const keyId = text?.split('$')[1];
          if (!text || keyId === current) continue;
          const result = tryRewrap(keyring, text, totpSealContext(row.id), {
            what,
            id: row.id,
            keyId: keyId ?? '',
          });
          if (result.failure) failed.push(result.failure);
          else next[field] = result.text;
        }
        const n = Object.keys(next).length;
        if (!n) continue;
        // Not a change the person made: the row's "updated" time stays.
        await tx
          .update(idpUsers)
          .set({ ...next, updatedAt: sql`${idpUsers.updatedAt}` })
          .where(eq(idpUsers.id, row.id));
        rewrapped += n;
      }
      return rows;
    });
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) break;
    after = last.id;
  }

  // A handful of rows (one today): one transaction.
  await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(vaultServerSecrets)
      .where(staleUnder(vaultServerSecrets.sealed, current))
      .for('update');
    for (const row of rows) {
      const keyId = row.sealed.split('$')[1] ?? '';
      const result = tryRewrap(keyring, row.sealed, serverSecretContext(row.name), {
        what: 'server secret',
        id: row.name,
        keyId,
      });
      if (result.failure) {
        failed.push(result.failure);
        continue;
      }
      await tx
        .update(vaultServerSecrets)
        .set({ sealed: result.text })
        .where(eq(vaultServerSecrets.name, row.name));
      rewrapped += 1;
    }
  });

  // The firms' document-signing keys (one row a firm that signs): a batch per transaction.
  let afterOrg = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ orgId: firmSigningCerts.orgId, keySealed: firmSigningCerts.keySealed })
        .from(firmSigningCerts)
        .where(and(gt(firmSigningCerts.orgId, afterOrg), staleUnder(firmSigningCerts.keySealed, current)))
        .orderBy(asc(firmSigningCerts.orgId))
        .limit(BATCH)
        .for('update');
      for (const row of rows) {
        const result = tryRewrap(keyring, row.keySealed, signingKeyContext(row.orgId), {
          what: 'document-signing key of firm',
          id: row.orgId,
          keyId: row.keySealed.split('$')[1] ?? '',
        });
        if (result.failure) {
          failed.push(result.failure);
          continue;
        }
        await tx
          .update(firmSigningCerts)
          .set({ keySealed: result.text, updatedAt: sql`${firmSigningCerts.updatedAt}` })
          .where(eq(firmSigningCerts.orgId, row.orgId));
        rewrapped += 1;
      }
      return rows;
    });
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) break;
    afterOrg = last.orgId;
  }

  const byKey: Record<string, number> = {};
  for (const column of [
    idpUsers.totpSecret,
    idpUsers.totpPendingSecret,
    vaultServerSecrets.sealed,
    firmSigningCerts.keySealed,
  ]) {
    const table = column.table;
    const counts = await db
      .select({ keyId: keyIdOf(column), total: sql<number>`count(*)::int` })
      .from(table)
      .where(isNotNull(column))
      .groupBy(keyIdOf(column));
    for (const c of counts) byKey[c.keyId] = (byKey[c.keyId] ?? 0) + c.total;
  }
  return { current, rewrapped, failed, byKey };
}
