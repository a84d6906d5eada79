import { Readable } from 'node:stream';
import type { ReadableStream as TWebReadable } from 'node:stream/web';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { clients, vaultEntries } from '../../db/schema';
import { csvWriter } from '../clients';
import { openEntryPassword, vaultKeyring } from '../vault';

const PAGE = 200;
const HEADERS = [
  'id',
  'clientId',
  'clientCode',
  'client',
  'title',
  'url',
  'username',
  'password',
  'notes',
  'tags',
];

async function* vaultRows(db: TDb, config: Pick<TConfig, 'vault'>, orgId: string) {
  const keyring = await vaultKeyring(config);
  let after: string | null = null;
  for (;;) {
    const rows = await db
      .select({ entry: vaultEntries, clientCode: clients.code, clientName: clients.name })
      .from(vaultEntries)
      .leftJoin(clients, and(eq(clients.orgId, vaultEntries.orgId), eq(clients.id, vaultEntries.clientId)))
      .where(and(eq(vaultEntries.orgId, orgId), after ? gt(vaultEntries.id, after) : undefined))
      .orderBy(asc(vaultEntries.id))
      .limit(PAGE);
    for (const { entry, clientCode, clientName } of rows) {
      yield [
        entry.id,
        entry.clientId ?? '',
        clientCode ?? '',
        clientName ?? '',
        entry.title,
        entry.url ?? '',
        entry.username ?? '',
        openEntryPassword(keyring, entry),
        entry.notes ?? '',
        entry.tags.join(', '),
      ];
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.entry.id ?? null;
  }
}

/**
 * The vault's entries with their passwords as CSV, encrypted as it is written: an OpenPGP message
 * (AES-256, key from the passphrase by the standard's salted, iterated S2K) that `gpg --decrypt`
 * opens. The clear text only ever exists a page at a time in this process.
 */
export async function vaultEntriesFile(
  db: TDb,
  config: Pick<TConfig, 'vault'>,
  orgId: string,
  passphrase: string,
): Promise<{ body: Readable; feeding: Promise<void> }> {
  const csv = csvWriter(HEADERS);
  const source = Readable.from(vaultRows(db, config, orgId));
  source.pipe(csv);
  const feeding = new Promise<void>((resolve, reject) => {
    source.once('error', reject);
    csv.once('error', reject);
    csv.once('end', resolve);
  });
  // openpgp only for an export that asked for the vault (a heavy import, kept out of the start).
  const { createMessage, encrypt } = await import('openpgp');
  const message = await createMessage({
    binary: Readable.toWeb(csv) as unknown as ReadableStream<Uint8Array>,
  });
  const encrypted = await encrypt({ message, passwords: [passphrase], format: 'binary' });
  const body = Readable.fromWeb(encrypted as unknown as TWebReadable<Uint8Array>);
  return {
    body,
    feeding: feeding.catch((error) => {
      body.destroy(error as Error);
      throw error;
    }),
  };
}
