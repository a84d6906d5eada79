import { timingSafeEqual } from 'node:crypto';
import type { TConfig } from '../../config';
import type { TExecutor } from '../../db/client';
import { secretBox } from '../vault';

// The addresses mail comes back to (issue 38, item 3): a thread's reply address and a client's
// forwarding address, each carrying a token that is an HMAC of what it names under the server's
// keyed-hash key. Nobody can make a working address for another thread or client; one that is
// guessed or altered is held for review.

type TInboundConfig = Pick<TConfig, 'vault' | 'inbound'>;
const TOKEN_LENGTH = 24; // hex: 96 bits

const compact = (uuid: string) => uuid.replace(/-/g, '').toLowerCase();
const expand = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

async function tokenOf(config: TInboundConfig, db: TExecutor, purpose: 'reply' | 'file', id: string) {
  return (await secretBox(config, db).mac(`messages.${purpose}:${id}`)).slice(0, TOKEN_LENGTH);
}

/** The thread's reply address, or null when inbound mail is off. */
export async function replyAddress(config: TInboundConfig, db: TExecutor, threadId: string) {
  if (!config.inbound) return null;
  return `reply+${compact(threadId)}-${await tokenOf(config, db, 'reply', threadId)}@${config.inbound.domain}`;
}

/** The client's forwarding address (forward or BCC a mail to file it with the client). */
export async function forwardingAddress(config: TInboundConfig, db: TExecutor, clientId: string) {
  if (!config.inbound) return null;
  return `file+${compact(clientId)}-${await tokenOf(config, db, 'file', clientId)}@${config.inbound.domain}`;
}

export type TInboundTarget = { kind: 'reply' | 'file'; id: string; tokenOk: boolean };

/**
 * What an address of our domain names, and whether its token is right; null for any other address
 * (another domain, or a local part that is none of ours).
 */
export async function parseInboundAddress(
  config: TInboundConfig,
  db: TExecutor,
  address: string,
): Promise<TInboundTarget | null> {
  if (!config.inbound) return null;
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== config.inbound.domain) return null;
  const match = /^(reply|file)\+([0-9a-f]{32})-([0-9a-f]{1,64})$/i.exec(address.slice(0, at));
  if (!match) return null;
  const kind = (match[1] ?? '').toLowerCase() as 'reply' | 'file';
  const id = expand((match[2] ?? '').toLowerCase());
  const given = Buffer.from((match[3] ?? '').toLowerCase());
  const wanted = Buffer.from(await tokenOf(config, db, kind, id));
  return { kind, id, tokenOk: given.length === wanted.length && timingSafeEqual(given, wanted) };
}
