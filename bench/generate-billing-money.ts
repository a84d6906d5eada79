import type { TInvoiceStatus, TPaymentMethod } from '../src/domain/billing/constants';
import { settledStatus } from '../src/domain/billing/status';
import { addDays } from '../src/domain/days';

// The money side of the billing generator: how each client pays the year's invoices, as the
// product's own writes would leave it (recordPayment, applyCredit, a credit note's issue, a
// reversal, a refund), simulated day by day per client in plain JavaScript, so the rows inserted
// afterwards already hold each invoice's amount paid, balance and status.

export type TPayer = 'prompt' | 'late' | 'partial' | 'slow' | 'never' | 'retainer';

export type TMoneyInvoice = {
  id: string;
  clientId: string;
  kind: 'invoice' | 'credit_note';
  status: TInvoiceStatus;
  issueDate: string | null;
  subtotal: number;
  total: number;
  sentAt: Date | null;
  creditForId: string | null;
  amountPaid: number;
  balance: number;
};

export type TPaymentRow = {
  id: string;
  clientId: string;
  kind: 'receipt' | 'refund';
  receivedOn: string;
  method: TPaymentMethod;
  reference: string;
  amount: number;
  tdsAmount: number;
  tdsSection: string | null;
  tdsCertificateReceived: boolean;
  bankCharges: number;
  notes: string;
  reversedAt: Date | null;
  reverseReason: string | null;
};

export type TAllocationRow = {
  id: string;
  clientId: string;
  invoiceId: string;
  paymentId: string | null;
  creditNoteId: string | null;
  amount: number;
  allocatedOn: string;
  reversedAt: Date | null;
};

export type TMoneyClient = { id: string; payer: TPayer; deductsTds: boolean };

type TSource = { paymentId: string; left: number };

const METHODS: TPaymentMethod[] = ['bank_transfer', 'bank_transfer', 'upi', 'upi', 'cheque', 'card', 'cash'];
/** Midday in India, as a person records money in office hours. */
const at = (day: string) => new Date(`${day}T06:30:00Z`);

/**
 * Settles the clients' invoices by their habits, up to `today` (nothing dated later happens):
 * prompt payers within two weeks, late ones within two months, partial ones in two halves, slow ones
 * after months, some never; retainer clients pay quarterly advances that their invoices draw on.
 * Companies deduct TDS (194J, 10% of the fee before tax). Now and then a cheque bounces (reversed,
 * paid again), a payment is rounded up (credit, applied to the next invoice) or credit is refunded.
 */
export function simulateMoney(
  clients: TMoneyClient[],
  invoices: TMoneyInvoice[],
  opts: { today: string; from: string; random: () => number; newId: () => string },
) {
  const { today, random, newId } = opts;
  const payments: TPaymentRow[] = [];
  const allocations: TAllocationRow[] = [];
  const byClient = new Map<string, TMoneyInvoice[]>();
  for (const inv of invoices) {
    if (inv.status === 'draft' || inv.status === 'void' || !inv.issueDate) continue;
    byClient.set(inv.clientId, [...(byClient.get(inv.clientId) ?? []), inv]);
  }
  const byId = new Map(invoices.map((i) => [i.id, i]));
  let seq = 0;
  const reference = (method: TPaymentMethod) =>
    method === 'cheque'
      ? `CHQ ${100000 + (seq++ % 900000)}`
      : method === 'cash'
        ? ''
        : `UTR${9_000_000 + seq++}`;

  for (const client of clients) {
    const docs = (byClient.get(client.id) ?? []).sort((a, b) =>
      (a.issueDate ?? '').localeCompare(b.issueDate ?? ''),
    );
    if (!docs.length) continue;
    const sources: TSource[] = [];
    // Events of the client by day: a credit note settling its invoice, a payment of an invoice, an
    // advance. Processed in date order so credit is used as the product would find it.
    type TEvent = { day: string; order: number; run: () => void };
    const events: TEvent[] = [];
    const allocate = (
      inv: TMoneyInvoice,
      amount: number,
      day: string,
      src: { paymentId?: string; creditNoteId?: string },
    ) => {
      allocations.push({
        id: newId(),
        clientId: client.id,
        invoiceId: inv.id,
        paymentId: src.paymentId ?? null,
        creditNoteId: src.creditNoteId ?? null,
        amount,
        allocatedOn: day,
        reversedAt: null,
      });
      inv.amountPaid += amount;
      inv.balance -= amount;
    };
    const fromCredit = (inv: TMoneyInvoice, day: string) => {
      for (const s of sources) {
        if (inv.balance <= 0) break;
        const take = Math.min(s.left, inv.balance);
        if (take <= 0) continue;
        s.left -= take;
        allocate(inv, take, day, { paymentId: s.paymentId });
      }
    };
    const receipt = (day: string, value: number, inv: TMoneyInvoice | null, allocated: number) => {
      const method = METHODS[Math.floor(random() * METHODS.length)] as TPaymentMethod;
      const tds =
        client.deductsTds && inv && inv.total > 0
          ? Math.floor((allocated * inv.subtotal) / inv.total / 10 / 100) * 100
          : 0;
      const bankCharges = method === 'bank_transfer' && random() < 0.1 && value - tds > 10_000 ? 1_500 : 0;
      const row: TPaymentRow = {
        id: newId(),
        clientId: client.id,
        kind: 'receipt',
        receivedOn: day,
        method,
        reference: reference(method),
        amount: value - tds - bankCharges,
        tdsAmount: tds,
        tdsSection: tds ? '194J' : null,
        tdsCertificateReceived: tds > 0 && day < addDays(today, -90),
        bankCharges,
        notes: '',
        reversedAt: null,
        reverseReason: null,
      };
      payments.push(row);
      return row;
    };
    /** Pays `wanted` of the invoice on `day`: credit first, then money (rounded up now and then). */
    const pay = (inv: TMoneyInvoice, wanted: number, day: string) => {
      fromCredit(inv, day);
      const due = Math.min(wanted, inv.balance);
      if (due <= 0) return;
      const bounce = random() < 0.004;
      const over = !bounce && random() < 0.025 ? 100_000 - (due % 100_000) : 0;
      const p = receipt(day, due + over, inv, due);
      if (bounce && addDays(day, 7) <= today) {
        p.method = 'cheque';
        p.reference = reference('cheque');
        p.reversedAt = at(addDays(day, 7));
        p.reverseReason = 'Cheque returned unpaid';
        // Its allocation was made and then taken back: the invoice is owed again, paid anew later.
        allocations.push({
          id: newId(),
          clientId: client.id,
          invoiceId: inv.id,
          paymentId: p.id,
          creditNoteId: null,
          amount: due,
          allocatedOn: day,
          reversedAt: p.reversedAt,
        });
        const again = addDays(day, 12);
        if (again <= today) events.push({ day: again, order: 2, run: () => pay(inv, due, again) });
        return;
      }
      allocate(inv, due, day, { paymentId: p.id });
      if (over) sources.push({ paymentId: p.id, left: over });
    };

    for (const doc of docs) {
      const issued = doc.issueDate as string;
      if (doc.kind === 'credit_note') {
        events.push({
          day: issued,
          order: 0,
          run: () => {
            const original = doc.creditForId ? byId.get(doc.creditForId) : undefined;
            if (!original) return;
            const applied = Math.min(doc.total, Math.max(original.balance, 0));
            if (applied > 0) allocate(original, applied, issued, { creditNoteId: doc.id });
          },
        });
        continue;
      }
      const r = random();
      const plan: [number, number][] =
        client.payer === 'prompt'
          ? [[3 + Math.floor(r * 12), 1]]
          : client.payer === 'late'
            ? [[20 + Math.floor(r * 55), 1]]
            : client.payer === 'partial'
              ? [
                  [10 + Math.floor(r * 20), 0.5],
                  [45 + Math.floor(r * 75), 1],
                ]
              : client.payer === 'slow'
                ? [[90 + Math.floor(r * 110), 1]]
                : client.payer === 'retainer'
                  ? [
                      [1, 0],
                      [20, 1],
                    ]
                  : [];
      for (const [days, share] of plan) {
        const day = addDays(issued, days);
        if (day > today) break;
        events.push({
          day,
          order: 1,
          // A share of the total, less what is settled already: the rest is paid at the last step.
          run: () =>
            share === 0
              ? fromCredit(doc, day)
              : pay(doc, Math.round(doc.total * share) - doc.amountPaid, day),
        });
      }
    }
    if (client.payer === 'retainer') {
      const quarter = Math.max(...docs.filter((d) => d.kind === 'invoice').map((d) => d.total), 0);
      for (let day = opts.from; day <= today; day = addDays(day, 91)) {
        const advance = Math.ceil((quarter * 3.3) / 100_000) * 100_000;
        events.push({
          day,
          order: -1,
          run: () => {
            const p = receipt(day, advance, null, 0);
            p.notes = 'Quarterly retainer';
            sources.push({ paymentId: p.id, left: advance });
          },
        });
      }
    }
    events.sort((a, b) => a.day.localeCompare(b.day) || a.order - b.order);
    for (let i = 0; i < events.length; i++) (events[i] as TEvent).run();
    // Now and then the client asks for its unused credit back.
    const credit = sources.reduce((s, x) => s + x.left, 0);
    const last = docs.at(-1)?.issueDate ?? today;
    if (credit > 0 && client.payer !== 'retainer' && random() < 0.2 && addDays(last, 20) <= today) {
      payments.push({
        id: newId(),
        clientId: client.id,
        kind: 'refund',
        receivedOn: addDays(last, 20),
        method: 'bank_transfer',
        reference: reference('bank_transfer'),
        amount: credit,
        tdsAmount: 0,
        tdsSection: null,
        tdsCertificateReceived: false,
        bankCharges: 0,
        notes: 'Refund of the advance left over',
        reversedAt: null,
        reverseReason: null,
      });
    }
  }
  // The status each invoice's live allocations give it, by the domain's rule.
  for (const inv of invoices) {
    if (inv.kind !== 'invoice' || inv.status === 'draft' || inv.status === 'void') continue;
    inv.status = settledStatus(inv.status, { total: inv.total, settled: inv.amountPaid, sent: !!inv.sentAt });
  }
  return { payments, allocations };
}
