import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TPermission } from '../../domain/permissions';
import { billingSettings, invoices, members, orgs, roles } from '../db/schema';
import { createDraft, issueInvoice } from '../features/billing';
import type { TTestApp } from './app';

// Billing fixtures: issued invoices and credit notes made with the ledger's own functions (the
// invoice screens' procedures belong to their feature), and members with billing rights.

const line = (description: string, rate: number) => ({
  description,
  serviceId: null,
  taxCode: '',
  quantityMilli: 1000,
  rate,
  discount: 0,
  taxRateBp: 0,
});

/** An Indian firm's billing: INR, fiscal year from April, Asia/Kolkata, no tax on invoices. */
export async function billingFirm(t: TTestApp, name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(orgs)
    .set({ currency: 'INR', country: 'IN', fiscalYearStartMonth: 4, timeZone: 'Asia/Kolkata' })
    .where(eq(orgs.id, firm.org.id));
  await t.db.insert(billingSettings).values({ orgId: firm.org.id, dueDays: 15 });
  return firm;
}

/** An issued invoice of one line for `amount` minor units (no tax), due on `dueDate` if given. */
export async function issuedInvoice(
  t: TTestApp,
  orgId: string,
  clientId: string,
  amount: number,
  opts: { issueDate?: string; dueDate?: string; description?: string } = {},
) {
  const actor = { kind: 'system' as const, orgId };
  return t.db.transaction(async (tx) => {
    const draft = await createDraft(tx, orgId, {
      clientId,
      lines: [line(opts.description ?? 'Professional fees', amount)],
      createdBy: null,
    });
    if (opts.dueDate) {
      await tx
        .update(invoices)
        .set({ dueDate: opts.dueDate })
        .where(and(eq(invoices.orgId, orgId), eq(invoices.id, draft.id)));
    }
    return issueInvoice(tx, actor, draft.id, { issueDate: opts.issueDate, memberId: null });
  });
}

/** An issued credit note against an invoice: it settles that invoice's balance, the rest is credit. */
export async function issuedCreditNote(
  t: TTestApp,
  orgId: string,
  invoice: { id: string; clientId: string },
  amount: number,
  issueDate?: string,
) {
  const actor = { kind: 'system' as const, orgId };
  return t.db.transaction(async (tx) => {
    const draft = await createDraft(tx, orgId, {
      clientId: invoice.clientId,
      kind: 'credit_note',
      creditForId: invoice.id,
      lines: [line('Fee reduced', amount)],
      createdBy: null,
    });
    return issueInvoice(tx, actor, draft.id, { issueDate, memberId: null });
  });
}

/** A member whose role has these rights, limited to the clients they are on the team of if asked. */
export async function memberWith(
  t: TTestApp,
  orgId: string,
  permissions: TPermission[],
  opts: { assignedClientsOnly?: boolean; firstName?: string } = {},
) {
  const [role] = await t.db
    .insert(roles)
    .values({
      orgId,
      name: `Role ${randomUUID().slice(0, 8)}`,
      permissions,
      assignedClientsOnly: opts.assignedClientsOnly ?? false,
    })
    .returning();
  if (!role) throw new Error('role not created');
  const sub = randomUUID();
  const [member] = await t.db
    .insert(members)
    .values({
      orgId,
      sub,
      email: `member-${sub}@example.test`,
      firstName: opts.firstName ?? 'Mira',
      lastName: 'Member',
      roleId: role.id,
      isVerified: true,
    })
    .returning();
  if (!member) throw new Error('member not created');
  return { ...member, token: await t.tokenFor(sub) };
}
