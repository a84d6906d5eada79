import { eq } from 'drizzle-orm';
import { createFormatter, type TFormatter } from '../../../domain/format';
import type { TExecutor } from '../../db/client';
import { orgs } from '../../db/schema';

/**
 * The firm's formatter on the server: what notifications, their mails, messages and the system log
 * write dates with, so a person reads "18 Dec 2026" (en-IN) or "Dec 18, 2026" (en-US) there as on
 * every screen, never "2026-12-18".
 */
export async function firmFormatter(db: TExecutor, orgId: string): Promise<TFormatter> {
  const [firm] = await db
    .select({ country: orgs.country, timeZone: orgs.timeZone, currency: orgs.currency })
    .from(orgs)
    .where(eq(orgs.id, orgId));
  return createFormatter(firm ?? { country: null, timeZone: 'UTC', currency: 'USD' });
}

/** An instant on the firm's clock, with its zone: "18 Dec 2026, 9:00 am (Asia/Kolkata)". */
export async function firmDateTime(db: TExecutor, orgId: string, at: Date): Promise<string> {
  const format = await firmFormatter(db, orgId);
  return `${format.dateTime(at)} (${format.timeZone})`;
}
