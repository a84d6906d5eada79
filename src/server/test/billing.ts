import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TPaymentMethod } from '../../domain/billing/constants';
import type { TPermission } from '../../domain/permissions';
import type { TActor } from '../auth';
import { allocations, billingSettings, invoices, members, orgs, payments, roles } from '../db/schema';
import {
  createDraft,
  issueInvoice,
  refreshBalances,
  type TDraftLine,
  type TInvoiceRow,
} from '../features/billing';
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

// Billing made straight through the ledger core, for tests of what reads it (the portal, reports,
// export, backup): the invoices and payments procedures are other parts' to test.

type TLine = Partial<TDraftLine> & { description: string; rate: number };

const lineOf = (l: TLine): TDraftLine => ({
  serviceId: null,
  taxCode: '',
  quantityMilli: 1000,
  discount: 0,
  taxRateBp: 0,
  ...l,
});

type TInvoiceInput = {
  clientId: string;
  lines: TLine[];
  kind?: 'invoice' | 'credit_note';
  creditForId?: string;
};

/** A draft invoice (no number yet). */
export async function seedDraft(t: Pick<TTestApp, 'db'>, orgId: string, input: TInvoiceInput) {
  return t.db.transaction((tx) =>
    createDraft(tx, orgId, {
      clientId: input.clientId,
      kind: input.kind,
      creditForId: input.creditForId,
      lines: input.lines.map(lineOf),
      createdBy: null,
    }),
  );
}

/** An invoice (or credit note) issued on `issueDate`. */
export async function seedInvoice(
  t: Pick<TTestApp, 'db'>,
  orgId: string,
  input: TInvoiceInput & { issueDate?: string },
): Promise<TInvoiceRow> {
  const draft = await seedDraft(t, orgId, input);
  const actor: TActor = { kind: 'system', orgId };
  return t.db.transaction((tx) =>
    issueInvoice(tx, actor, draft.id, { issueDate: input.issueDate ?? '2026-11-02', memberId: null }),
  );
}

/** A receipt allocated to invoices (what is left unallocated is the client's credit). */
export async function seedReceipt(
  t: Pick<TTestApp, 'db'>,
  orgId: string,
  input: {
    clientId: string;
    receivedOn: string;
    amount: number;
    tdsAmount?: number;
    method?: TPaymentMethod;
    allocate: { invoiceId: string; amount: number }[];
  },
) {
  return t.db.transaction(async (tx) => {
    const [payment] = await tx
      .insert(payments)
      .values({
        orgId,
        clientId: input.clientId,
        receivedOn: input.receivedOn,
        method: input.method ?? 'bank_transfer',
        currency: 'INR',
        amount: input.amount,
        tdsAmount: input.tdsAmount ?? 0,
      })
      .returning();
    if (!payment) throw new Error('payment not created');
    if (input.allocate.length) {
      await tx.insert(allocations).values(
        input.allocate.map((a) => ({
          orgId,
          clientId: input.clientId,
          invoiceId: a.invoiceId,
          paymentId: payment.id,
          amount: a.amount,
          allocatedOn: input.receivedOn,
        })),
      );
      await refreshBalances(
        tx,
        orgId,
        input.allocate.map((a) => a.invoiceId),
      );
    }
    return payment;
  });
}
