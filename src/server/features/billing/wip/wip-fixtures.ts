import { eq, sql } from 'drizzle-orm';
import { addDays, todayIn } from '../../../../domain/days';
import { periodContaining } from '../../../../domain/periods';
import { orgs, projects, timesheetEntries } from '../../../db/schema';
import type { TTestApp } from '../../../test/app';
import { seedClient } from '../../../test/fixtures';

// Fixtures the WIP tests share: a firm billing in rupees with a client, approved time seeded as the
// approval leaves it (status approved, the rate frozen on the entry), and days relative to today.

export const today = () => todayIn('UTC');
/** The first day of the month `months` from this one (negative: before). */
export function monthStart(months = 0): string {
  const start = periodContaining('monthly', 1, today()).start;
  let day = start;
  for (let i = 0; i < Math.abs(months); i++) {
    day =
      months > 0
        ? addDays(periodContaining('monthly', 1, day).end, 1)
        : periodContaining('monthly', 1, addDays(day, -1)).start;
  }
  return day;
}

export async function billingFirm(t: TTestApp, name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(orgs)
    .set({ currency: 'INR', country: 'IN', timeZone: 'UTC', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  const api = t.client(firm.owner.token);
  const client = await seedClient(t, firm.org.id, { name: `${name} client` });
  return { firm, api, client, orgId: firm.org.id };
}

/** Approved billable time, as approval leaves it. */
export async function approvedTime(
  t: TTestApp,
  orgId: string,
  values: {
    memberId: string;
    clientId: string;
    date?: string;
    minutes: number;
    billRate: number | null;
    serviceId?: string | null;
    projectId?: string | null;
    note?: string;
  },
) {
  const [row] = await t.db
    .insert(timesheetEntries)
    .values({
      orgId,
      memberId: values.memberId,
      clientId: values.clientId,
      date: values.date ?? addDays(today(), -3),
      minutes: values.minutes,
      billRate: values.billRate,
      serviceId: values.serviceId ?? null,
      projectId: values.projectId ?? null,
      note: values.note ?? '',
      billable: true,
      status: 'approved',
    })
    .returning();
  if (!row) throw new Error('entry not created');
  return row;
}

/** A period's project of an engagement, as the recurring job makes it. */
export async function periodProject(
  t: TTestApp,
  orgId: string,
  values: { clientId: string; serviceId: string; engagementId: string; periodStart: string; name: string },
) {
  const [row] = await t.db
    .insert(projects)
    .values({
      orgId,
      clientId: values.clientId,
      serviceId: values.serviceId,
      clientServiceId: values.engagementId,
      name: values.name,
      periodKey: values.periodStart.slice(0, 7),
      periodStart: values.periodStart,
      status: 'IN_PROGRESS',
    })
    .returning();
  if (!row) throw new Error('project not created');
  return row;
}

export { codeAndMessageOf as codeOf } from '../../../test/outcome';

/** How many invoices a firm has, of any status. */
export async function invoiceCount(t: TTestApp, orgId: string) {
  const result = await t.db.execute(sql`select count(*)::int as n from invoices where org_id = ${orgId}`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as {
    n: number;
  }[];
  return Number(rows[0]?.n ?? 0);
}
