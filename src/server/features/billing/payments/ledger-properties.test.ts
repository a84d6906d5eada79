import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../../../domain/permissions';
import type { TScope } from '../../../auth';
import { rowsOf } from '../../../db/sql';
import { createTestApp, type TTestApp } from '../../../test/app';
import { billingFirm, issuedCreditNote, issuedInvoice } from '../../../test/billing';
import { seedClient } from '../../../test/fixtures';
import { clientStatement } from '..';
import { clientCredit } from './credit';
import { clientAccount } from './list';
import { applyCredit, recordPayment, refundCredit } from './record';
import { reverseAllocation, reversePayment } from './reverse';

// Random sequences of what a firm does with a client's money, run against the real services and
// database. Whatever is accepted or refused, the ledger must hold: no allocation beyond its payment
// or credit note, no balance below zero or out of step with its allocations, no negative credit, and
// a statement that closes at what is owed less the credit held.

let t: TTestApp;
let firm: Awaited<ReturnType<typeof billingFirm>>;
let scope: TScope;
const meta = { ip: '127.0.0.1', userAgent: null };

beforeAll(async () => {
  t = await createTestApp();
  firm = await billingFirm(t, 'Property & Co');
  scope = {
    orgId: firm.org.id,
    memberId: firm.owner.id,
    isOwner: true,
    permissions: ALL_PERMISSIONS,
    assignedClientsOnly: false,
  };
});
afterAll(() => t?.close());

type TOp =
  | { op: 'invoice'; amount: number }
  | { op: 'creditNote'; pick: number; amount: number }
  | { op: 'receipt'; amount: number; tds: number; bank: number; shares: { pick: number; amount: number }[] }
  | { op: 'apply'; shares: { pick: number; amount: number }[] }
  | { op: 'refund'; amount: number }
  | { op: 'reverse'; pick: number }
  | { op: 'unallocate'; pick: number };

const money = fc.integer({ min: 1, max: 50_000 });
const pick = fc.nat({ max: 20 });
const shares = fc.array(fc.record({ pick, amount: money }), { maxLength: 3 });
const OP = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('invoice' as const), amount: money }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('creditNote' as const), pick, amount: money }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('receipt' as const),
      amount: fc.integer({ min: 0, max: 60_000 }),
      tds: fc.oneof(fc.constant(0), money),
      bank: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 })),
      shares,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('apply' as const), shares }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('refund' as const), amount: money }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reverse' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unallocate' as const), pick }) },
) as fc.Arbitrary<TOp>;

/** A refusal the rules give (a 4xx): expected in a random walk. Anything else fails the property. */
async function allowRefusal(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'BAD_REQUEST' && code !== 'NOT_FOUND') throw error;
    return false;
  }
}

async function rows<T>(query: ReturnType<typeof sql>) {
  return rowsOf<T>(await t.db.execute(query));
}

async function checkLedger(clientId: string) {
  const orgId = firm.org.id;
  const overPaid = await rows<{ id: string }>(sql`
    select p.id from payments p where p.org_id = ${orgId} and p.client_id = ${clientId} and (
      (select coalesce(sum(a.amount), 0) from allocations a where a.payment_id = p.id and a.reversed_at is null)
        > case when p.kind = 'receipt' and p.reversed_at is null then p.amount + p.tds_amount + p.bank_charges else 0 end)`);
  expect(overPaid, 'a payment allocated beyond what it brought').toEqual([]);
  const overCredited = await rows<{ id: string }>(sql`
    select i.id from invoices i where i.org_id = ${orgId} and i.client_id = ${clientId} and i.kind = 'credit_note'
      and (select coalesce(sum(a.amount), 0) from allocations a where a.credit_note_id = i.id and a.reversed_at is null)
        > case when i.status = 'void' then 0 else i.total end`);
  expect(overCredited, 'a credit note applied beyond its total').toEqual([]);
  const wrong = await rows<{
    id: string;
    balance: string;
    total: string;
    paid: string;
    live: string;
    status: string;
  }>(sql`
    select i.id, i.balance, i.total, i.amount_paid as paid, i.status,
      (select coalesce(sum(a.amount), 0) from allocations a where a.invoice_id = i.id and a.reversed_at is null) as live
    from invoices i where i.org_id = ${orgId} and i.client_id = ${clientId} and i.kind = 'invoice'`);
  for (const r of wrong) {
    expect(Number(r.balance), `invoice ${r.id} below zero`).toBeGreaterThanOrEqual(0);
    expect(Number(r.paid)).toBe(Number(r.live));
    expect(Number(r.balance)).toBe(Number(r.total) - Number(r.live));
    const expected =
      Number(r.live) >= Number(r.total) ? 'paid' : Number(r.live) > 0 ? 'partly_paid' : 'issued';
    expect(r.status).toBe(expected);
  }
  const credit = await clientCredit(t.db, orgId, clientId);
  expect(credit, 'credit below zero').toBeGreaterThanOrEqual(0);
  // The credit the triggers keep is the one the rows add up to.
  const [counted] = await rows<{ credit: string }>(sql`
    select
      coalesce((select sum(amount + tds_amount + bank_charges) from payments where org_id = ${orgId}
        and client_id = ${clientId} and kind = 'receipt' and reversed_at is null), 0)
      - coalesce((select sum(amount) from payments where org_id = ${orgId} and client_id = ${clientId}
        and kind = 'refund' and reversed_at is null), 0)
      + coalesce((select sum(total) from invoices where org_id = ${orgId} and client_id = ${clientId}
        and kind = 'credit_note' and status not in ('draft', 'void')), 0)
      - coalesce((select sum(amount) from allocations where org_id = ${orgId} and client_id = ${clientId}
        and reversed_at is null), 0) as credit`);
  expect(credit, 'kept credit against the rows').toBe(Number(counted?.credit ?? 0));
  const account = await clientAccount(t.db, scope, clientId);
  const statement = await clientStatement(t.db, orgId, clientId, '2026-01-01', '2035-12-31');
  expect(statement.closingBalance).toBe(account.outstanding - credit);
}

describe('the ledger under random payments, allocations, reversals and refunds', () => {
  const accepted = { receipt: 0, apply: 0, refund: 0, reverse: 0, unallocate: 0, refused: 0 };
  const count = (kind: Exclude<keyof typeof accepted, 'refused'>, took: boolean) => {
    if (took) accepted[kind] += 1;
    else accepted.refused += 1;
  };
  it('never allocates beyond a payment or a balance, and the statement closes at invoices less payments and credits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { minLength: 4, maxLength: 14 }), async (ops) => {
        const client = await seedClient(t, firm.org.id);
        const invoiceIds: string[] = [];
        const paymentIds: string[] = [];
        const at = <T>(list: T[], i: number) => (list.length ? list[i % list.length] : undefined);
        const allocationsOf = (list: { pick: number; amount: number }[]) => {
          const seen = new Set<string>();
          return list.flatMap((s) => {
            const id = at(invoiceIds, s.pick);
            if (!id || seen.has(id)) return [];
            seen.add(id);
            return [{ invoiceId: id, amount: s.amount }];
          });
        };
        for (const o of ops) {
          switch (o.op) {
            case 'invoice':
              invoiceIds.push((await issuedInvoice(t, firm.org.id, client.id, o.amount)).id);
              break;
            case 'creditNote': {
              const id = at(invoiceIds, o.pick);
              if (id) await issuedCreditNote(t, firm.org.id, { id, clientId: client.id }, o.amount);
              break;
            }
            case 'receipt': {
              const allocations = allocationsOf(o.shares);
              if (o.amount + o.tds + o.bank === 0) break;
              if (allocations.reduce((s, a) => s + a.amount, 0) > o.amount + o.tds + o.bank) break;
              const tookReceipt = await allowRefusal(async () => {
                const p = await recordPayment(
                  t.db,
                  scope,
                  {
                    clientId: client.id,
                    receivedOn: '2026-06-01',
                    method: 'bank_transfer',
                    reference: '',
                    amount: o.amount,
                    tdsAmount: o.tds,
                    tdsSection: null,
                    tdsCertificateReceived: false,
                    bankCharges: o.bank,
                    notes: '',
                    allocations,
                  },
                  meta,
                );
                paymentIds.push(p.id);
              });
              count('receipt', tookReceipt);
              break;
            }
            case 'apply': {
              const allocations = allocationsOf(o.shares);
              if (!allocations.length) break;
              count(
                'apply',
                await allowRefusal(() =>
                  applyCredit(t.db, scope, { clientId: client.id, allocations }, meta),
                ),
              );
              break;
            }
            case 'refund': {
              const tookRefund = await allowRefusal(async () => {
                const r = await refundCredit(
                  t.db,
                  scope,
                  {
                    clientId: client.id,
                    paidOn: '2026-07-01',
                    method: 'upi',
                    reference: '',
                    amount: o.amount,
                    notes: '',
                  },
                  meta,
                );
                paymentIds.push(r.id);
              });
              count('refund', tookRefund);
              break;
            }
            case 'reverse': {
              const id = at(paymentIds, o.pick);
              if (id)
                await allowRefusal(() =>
                  reversePayment(t.db, scope, { paymentId: id, reason: 'Random' }, meta),
                );
              break;
            }
            case 'unallocate': {
              const [live] = await rows<{ id: string }>(sql`select id from allocations
                where client_id = ${client.id} and reversed_at is null order by created_at, id
                offset ${o.pick} limit 1`);
              if (live)
                await allowRefusal(() => reverseAllocation(t.db, scope, { allocationId: live.id }, meta));
              break;
            }
          }
        }
        await checkLedger(client.id);
      }),
      { numRuns: 15 },
    );
    // The walk must reach the rules, not only bounce off them.
    expect(accepted.receipt).toBeGreaterThan(0);
    expect(accepted.reverse + accepted.apply + accepted.refund).toBeGreaterThan(0);
    expect(accepted.refused).toBeGreaterThan(0);
  }, 600_000);
});
