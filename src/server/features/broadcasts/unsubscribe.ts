import { timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { broadcastDeliveries, broadcastSuppressions } from '../../db/schema';
import { absoluteLink } from '../../mail';
import { audit } from '../system-log';
import { secretBox } from '../vault';

// The one-click unsubscribe link of a delivery: its id and a keyed hash of it under the server's
// keyed-hash key (features/vault), so a link cannot be made up for someone else's delivery and no
// token has to be stored. Every instance shares the key through the database.

const PURPOSE = 'broadcast.unsubscribe\u0000';
const MAC_CHARS = 32;

type TMacConfig = Pick<TConfig, 'vault'>;

// One box per configuration: it loads the keyed-hash key once, not once per message.
const boxes = new WeakMap<TMacConfig['vault'], ReturnType<typeof secretBox>>();
function boxFor(config: TMacConfig, db: TExecutor) {
  let box = boxes.get(config.vault);
  if (!box) {
    box = secretBox(config, db);
    boxes.set(config.vault, box);
  }
  return box;
}

export async function unsubscribeToken(config: TMacConfig, db: TExecutor, deliveryId: string) {
  const mac = await boxFor(config, db).mac(PURPOSE + deliveryId);
  return `${deliveryId}.${mac.slice(0, MAC_CHARS)}`;
}

export const unsubscribePath = (token: string) => `/api/broadcasts/unsubscribe/${encodeURIComponent(token)}`;

export async function unsubscribeUrl(
  config: TMacConfig & Pick<TConfig, 'publicUrl'>,
  db: TExecutor,
  deliveryId: string,
) {
  return absoluteLink(config.publicUrl, unsubscribePath(await unsubscribeToken(config, db, deliveryId)));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery a token names, when its hash is right; null otherwise. */
export async function verifyToken(config: TMacConfig, db: TExecutor, token: string): Promise<string | null> {
  const [id = '', mac = ''] = token.split('.');
  if (!UUID.test(id) || mac.length !== MAC_CHARS) return null;
  const expected = Buffer.from((await unsubscribeToken(config, db, id)).split('.')[1] ?? '');
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/**
 * Unsubscribes the delivery's address from the firm's broadcasts: the suppression list gains it
 * (broadcasts only), the delivery shows it. Idempotent: a second click changes nothing.
 */
export async function unsubscribe(db: TDb, deliveryId: string): Promise<{ email: string } | null> {
  return db.transaction(async (tx) => {
    const [d] = await tx
      .select({
        orgId: broadcastDeliveries.orgId,
        broadcastId: broadcastDeliveries.broadcastId,
        email: broadcastDeliveries.email,
        state: broadcastDeliveries.state,
      })
      .from(broadcastDeliveries)
      .where(eq(broadcastDeliveries.id, deliveryId));
    if (!d) return null;
    const email = d.email.toLowerCase();
    const added = await tx
      .insert(broadcastSuppressions)
      .values({
        orgId: d.orgId,
        email,
        reason: 'unsubscribed',
        detail: `Unsubscribe link of broadcast ${d.broadcastId}`,
      })
      .onConflictDoUpdate({
        target: [broadcastSuppressions.orgId, broadcastSuppressions.email],
        set: { reason: 'unsubscribed' },
        setWhere: sql`${broadcastSuppressions.reason} <> 'unsubscribed'`,
      })
      .returning({ email: broadcastSuppressions.email });
    await tx
      .update(broadcastDeliveries)
      .set({ state: 'unsubscribed' })
      .where(and(eq(broadcastDeliveries.id, deliveryId), eq(broadcastDeliveries.state, 'sent')));
    if (added.length) {
      await audit(
        tx,
        { kind: 'system', orgId: d.orgId },
        {
          action: 'broadcast.unsubscribed',
          recordType: 'broadcast',
          recordId: d.broadcastId,
          summary: `${email} unsubscribed from the firm's broadcasts`,
        },
      );
    }
    return { email };
  });
}
