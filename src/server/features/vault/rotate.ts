import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { vaultEntries } from '../../db/schema';
import { audit } from '../system-log';
import { rewrap, type TKeyring, VaultCryptoError } from './crypto';
import { rotateSealedSecrets } from './rotate-sealed';
import { sealContext } from './service';

const BATCH = 200;

/**
 * Re-wraps every entry's data key that an older master key wraps with the current one, a batch per
 * transaction, each firm's share logged as a system action. The passwords' ciphertexts do not
 * change. Afterwards the old key can be removed. Safe to run again: it resumes where it stopped.
 */
export async function rotateVaultKeys(db: TDb, keyring: TKeyring) {
  const current = keyring.current.id;
  let rewrapped = 0;
  /** Entries whose data key would not unwrap (a missing key, altered bytes): left as they are, reported. */
  const failed: { id: string; orgId: string; keyId: string; reason: string }[] = [];
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          id: vaultEntries.id,
          orgId: vaultEntries.orgId,
          keyId: vaultEntries.keyId,
          dataKeyWrapped: vaultEntries.dataKeyWrapped,
        })
        .from(vaultEntries)
        .where(and(ne(vaultEntries.keyId, current), gt(vaultEntries.id, after)))
        .orderBy(asc(vaultEntries.id))
        .limit(BATCH)
        .for('update');
      const perOrg = new Map<string, number>();
      for (const row of rows) {
        let next: ReturnType<typeof rewrap>;
        try {
          next = rewrap(
            keyring,
            { wrappedKey: row.dataKeyWrapped, keyId: row.keyId },
            sealContext(row.orgId, row.id),
          );
        } catch (error) {
          if (!(error instanceof VaultCryptoError)) throw error;
          failed.push({ id: row.id, orgId: row.orgId, keyId: row.keyId, reason: error.message });
          continue;
        }
        await tx
          .update(vaultEntries)
          // Not a change anyone made to the entry: its "updated" time stays.
          .set({
            dataKeyWrapped: next.wrappedKey,
            keyId: next.keyId,
            updatedAt: sql`${vaultEntries.updatedAt}`,
          })
          .where(and(eq(vaultEntries.id, row.id), eq(vaultEntries.keyId, row.keyId)));
        perOrg.set(row.orgId, (perOrg.get(row.orgId) ?? 0) + 1);
      }
      for (const [orgId, n] of perOrg) {
        await audit(
          tx,
          { kind: 'system', orgId },
          {
            action: 'vault.rotateKey',
            recordType: 'vault_entry',
            summary: `Re-encrypted ${n} vault password key${n === 1 ? '' : 's'} with the master key “${current}”`,
          },
        );
      }
      return { rows, perOrg };
    });
    rewrapped += [...batch.perOrg.values()].reduce((a, b) => a + b, 0);
    const last = batch.rows.at(-1);
    if (!last || batch.rows.length < BATCH) break;
    after = last.id;
  }
  const remaining = await db
    .select({ keyId: vaultEntries.keyId, total: sql<number>`count(*)::int` })
    .from(vaultEntries)
    .groupBy(vaultEntries.keyId);
  return { current, rewrapped, failed, byKey: Object.fromEntries(remaining.map((r) => [r.keyId, r.total])) };
}

/**
 * `npm run vault:rotate`: every data key the vault and the secret box hold, re-wrapped with the
 * current master key. An older key may go once `byKey` names only the current one.
 */
export async function rotateMasterKey(db: TDb, keyring: TKeyring) {
  const vault = await rotateVaultKeys(db, keyring);
  const sealed = await rotateSealedSecrets(db, keyring);
  const byKey = { ...vault.byKey };
  for (const [id, n] of Object.entries(sealed.byKey)) byKey[id] = (byKey[id] ?? 0) + n;
  return {
    current: vault.current,
    rewrapped: vault.rewrapped + sealed.rewrapped,
    failed: [...vault.failed.map((f) => ({ ...f, what: 'vault entry' })), ...sealed.failed],
    byKey,
  };
}
