import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import { createFormatter } from '../../../domain/format';
import type { TExecutor } from '../../db/client';
import { clients, clientUserClients, clientUsers, orgs, projects, services, tasks } from '../../db/schema';
import { absoluteLink } from '../../mail';
import type { TPendingItem, TRecipientValues } from './render';

/** Pending items listed per client in a mail: enough to act on, not a report. */
const PENDING_LIMIT = 10;

type TFirm = {
  name: string;
  fiscalYearStartMonth: number;
  timeZone: string;
  country: string | null;
  currency: string;
};

export async function firmOf(db: TExecutor, orgId: string): Promise<TFirm> {
  const [org] = await db
    .select({
      name: orgs.name,
      fiscalYearStartMonth: orgs.fiscalYearStartMonth,
      timeZone: orgs.timeZone,
      country: orgs.country,
      currency: orgs.currency,
    })
    .from(orgs)
    .where(eq(orgs.id, orgId));
  return (
    org ?? { name: 'Practice', fiscalYearStartMonth: 1, timeZone: 'UTC', country: null, currency: 'USD' }
  );
}

/** "2026" for a calendar fiscal year, "2026-27" for one starting in April, on the firm's today. */
export function fiscalYearLabel(startMonth: number, timeZone: string, now = new Date()): string {
  const [y, m] = todayIn(timeZone, now).split('-').map(Number);
  const year = (m ?? 1) >= startMonth ? (y ?? 0) : (y ?? 0) - 1;
  return startMonth === 1 ? String(year) : `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
}

/**
 * The placeholder values of many clients at once (a batch of deliveries, a preview): one query per
 * kind of value, never one per client.
 */
export async function valuesFor(
  db: TExecutor,
  orgId: string,
  clientIds: readonly string[],
  publicUrl: string,
): Promise<Map<string, TRecipientValues>> {
  const firm = await firmOf(db, orgId);
  const fmt = createFormatter({ country: firm.country, timeZone: firm.timeZone, currency: firm.currency });
  const fiscalYear = fiscalYearLabel(firm.fiscalYearStartMonth, firm.timeZone);
  const out = new Map<string, TRecipientValues>();
  const ids = [...new Set(clientIds)];
  if (!ids.length) return out;
  const [rows, contacts, nextProjects, pending] = await Promise.all([
    db
      .select({ id: clients.id, name: clients.name, code: clients.code })
      .from(clients)
      .where(and(eq(clients.orgId, orgId), inArray(clients.id, ids))),
    db
      .selectDistinctOn([clientUserClients.clientId], {
        clientId: clientUserClients.clientId,
        name: clientUsers.name,
      })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .where(
        and(
          eq(clientUserClients.orgId, orgId),
          inArray(clientUserClients.clientId, ids),
          eq(clientUsers.status, 'active'),
        ),
      )
      .orderBy(clientUserClients.clientId, asc(clientUsers.createdAt)),
    // The client's next open project: its service, period and due date.
    db
      .selectDistinctOn([projects.clientId], {
        clientId: projects.clientId,
        name: projects.name,
        service: services.name,
        period: projects.periodKey,
        dueDate: projects.dueDate,
      })
      .from(projects)
      .leftJoin(services, and(eq(services.orgId, projects.orgId), eq(services.id, projects.serviceId)))
      .where(
        and(
          eq(projects.orgId, orgId),
          inArray(projects.clientId, ids),
          ne(projects.status, 'COMPLETED'),
          isNull(projects.archivedAt),
        ),
      )
      .orderBy(projects.clientId, sql`${projects.dueDate} asc nulls last`, projects.id),
    // Open to-dos that are the client's to do (documents to upload are asked for this way).
    db
      .select({ clientId: tasks.clientId, title: tasks.title, dueDate: tasks.dueDate })
      .from(tasks)
      .where(
        and(
          eq(tasks.orgId, orgId),
          inArray(tasks.clientId, ids),
          eq(tasks.forClient, true),
          ne(tasks.status, 'COMPLETED'),
        ),
      )
      .orderBy(tasks.clientId, sql`${tasks.dueDate} asc nulls last`, tasks.id)
      .limit(ids.length * PENDING_LIMIT),
  ]);
  const contactOf = new Map(contacts.map((c) => [c.clientId, c.name]));
  const projectOf = new Map(nextProjects.map((p) => [p.clientId, p]));
  const pendingOf = new Map<string, TPendingItem[]>();
  for (const p of pending) {
    if (!p.clientId) continue;
    const list = pendingOf.get(p.clientId) ?? [];
    if (list.length < PENDING_LIMIT)
      list.push({ title: p.title, dueDate: p.dueDate ? fmt.date(p.dueDate) : null });
    pendingOf.set(p.clientId, list);
  }
  for (const c of rows) {
    const project = projectOf.get(c.id);
    out.set(c.id, {
      client_name: c.name,
      client_code: c.code,
      contact_name: contactOf.get(c.id) ?? null,
      firm_name: firm.name,
      service: project?.service ?? project?.name ?? null,
      period: project?.period ?? null,
      due_date: project?.dueDate ? fmt.date(project.dueDate) : null,
      fiscal_year: fiscalYear,
      portal_link: absoluteLink(publicUrl, `/clientportal/${c.id}`),
      pending: pendingOf.get(c.id) ?? [],
    });
  }
  return out;
}
