import { addDays } from '../../src/domain/days';
import { INVOICE_MAIL } from '../../src/server/features/billing';
import {
  certificateQuarter,
  methodOf,
  paymentsOf,
  referenceOf,
  type TBillingCast,
  TDS_SECTION,
  tdsOn,
} from './billing-payers';
import { type DemoCalendar, hashOf, inMumbai } from './calendar';
import type { TDemoClient } from './clients';
import type { TClock, TClockStep } from './clock';
import type { TDemoPerson } from './people';
import { atServerTime } from './server-clock';
import type { TPersonSession, TSession } from './session';

// The firm's billing desk, day by day on the replay's clock, from the month it starts billing in
// Practice. On the second working day of each month the admin bills each client's unbilled
// approved time from work in progress (at the turn of a quarter also the smaller clients' monthly
// fees of the quarter; in November the ROC filings, with the MCA fees paid for them), onto the
// client's draft when the product made one, then issues every draft (the fixed fees of the periods
// that began, made by the recurring-work job; the returns and audits, made as their projects were
// completed) and mails them; clients with no email get theirs by hand. Every working day the admin
// records what came in, and as each quarter's Form 16A arrive marks those TDS certificates
// received. The cast's story (billing-payers.ts) runs through it.

export type TBillingDeskContext = {
  session: TSession;
  sessionOf: (memberId: string) => TPersonSession;
  people: TDemoPerson[];
  clients: TDemoClient[];
  calendar: DemoCalendar;
  cast: TBillingCast;
  /** The first day of the first month billed in Practice. */
  billFrom: string;
  /** The clients filing with the ROC, and those engagements. */
  rocClients: Set<string>;
  rocEngagements: Set<string>;
  today: string;
  until: Date;
  clock: TClock;
};

type TOpenInvoice = { id: string; clientId: string; number: string; issued: string; balance: number };
type TDue = { invoiceId: string; day: string; share: 'all' | 'half' };
type TTdsPayment = { id: string; receivedOn: string; reference: string; notes: string };

/** The retainer's advance: ₹3,00,000. */
const RETAINER = 30_000_000;
const DUPLICATE_FEE = 500_000;
const MCA_FEES = [60_000, 90_000, 120_000, 160_000];

export function openBillingDesk(ctx: TBillingDeskContext) {
  const person = (role: TDemoPerson['role']) => {
    const found = ctx.people.find((p) => p.role === role);
    if (!found) throw new Error(`demo ${role} missing`);
    return ctx.sessionOf(found.memberId).api;
  };
  const admin = person('Admin');
  const owner = person('Owner');
  const clientById = new Map(ctx.clients.map((c) => [c.id, c]));
  const open = new Map<string, TOpenInvoice>();
  const dues: TDue[] = [];
  const tdsPending: TTdsPayment[] = [];
  let runs = 0;
  let credit = 0;
  let writtenDown = false;
  let correction: { invoiceId: string; day: string } | null = null;

  /** The n-th working day of the month `day` is in. */
  function workingDay(day: string, n: number) {
    let d = `${day.slice(0, 7)}-01`;
    for (let left = n; ; d = addDays(d, 1)) {
      if (ctx.calendar.firmOpen(d) && --left === 0) return d;
    }
  }

  /** An issued invoice: on its way to the client (by mail when it has an address), its payments planned. */
  async function issued(
    invoice: { id: string; clientId: string; total: number },
    day: string,
    send: boolean,
  ) {
    const client = clientById.get(invoice.clientId);
    if (!client) throw new Error('invoice for a client the demo does not know');
    const done =
      send && client.email
        ? await admin.billing.invoices.issueAndSend({ invoiceId: invoice.id, issueDate: day })
        : await admin.billing.invoices.issue({ invoiceId: invoice.id, issueDate: day });
    open.set(invoice.id, {
      id: invoice.id,
      clientId: client.id,
      number: done.number ?? '',
      issued: day,
      balance: invoice.total,
    });
    // The retainer's invoices draw on its advance first; what the advance no longer covers is paid.
    if (client.id === ctx.cast.retainer.id && credit > 0) {
      const applied = Math.min(credit, invoice.total);
      await admin.billing.payments.applyCredit({
        clientId: client.id,
        appliedOn: day,
        allocations: [{ invoiceId: invoice.id, amount: applied }],
      });
      credit -= applied;
      const left = invoice.total - applied;
      if (!left) {
        open.delete(invoice.id);
        return;
      }
      (open.get(invoice.id) as TOpenInvoice).balance = left;
    }
    for (const p of paymentsOf(ctx.cast, client, invoice.id, day, ctx.today))
      dues.push({ invoiceId: invoice.id, ...p });
    if (!correction && runs >= 1 && client.id === ctx.cast.corrected.id)
      correction = { invoiceId: invoice.id, day: addDays(day, 2) };
  }

  /** The retainer client pays its advance before its first invoice: it sits as credit. */
  async function advance(day: string) {
    const client = ctx.cast.retainer;
    const method = 'bank_transfer';
    await admin.billing.payments.record({
      clientId: client.id,
      receivedOn: day,
      method,
      reference: referenceOf(method, `advance:${client.id}`),
      amount: RETAINER,
      notes: 'Retainer for the year, paid in advance',
    });
    credit = RETAINER;
  }

  async function issueDrafts(day: string) {
    // Issued drafts leave the list: the first page again until none is left.
    for (;;) {
      const drafts = await admin.billing.invoices.list({
        status: 'draft',
        kind: 'invoice',
        sort: 'client',
        direction: 'asc',
        page: 1,
        pageSize: 200,
      });
      for (const d of drafts.rows) await issued(d, day, true);
      if (drafts.rows.length < 200) return;
    }
  }

  /** Government fees paid at the MCA for each ROC client's annual filing, on October's last working day. */
  async function mcaFees(day: string) {
    let paidOn = `${day.slice(0, 4)}-10-31`;
    while (!ctx.calendar.firmOpen(paidOn)) paidOn = addDays(paidOn, -1);
    for (const clientId of ctx.rocClients) {
      await admin.billing.wip.disbursements.create({
        clientId,
        spentOn: paidOn,
        kind: 'government_fee',
        description: 'MCA filing fees for AOC-4 and MGT-7',
        amount: MCA_FEES[hashOf(clientId) % MCA_FEES.length] as number,
      });
    }
  }

  /**
   * Each client's unbilled approved time and disbursements, onto its draft for the month when the
   * product made one: at the turn of each quarter also the smaller clients' monthly fees of the
   * quarter, and in November the ROC filings' fees of the year before, with the MCA fees.
   */
  async function billWip(day: string) {
    const month = Number(day.slice(5, 7));
    const dueFee = (f: { engagementId: string; periodEnd: string }) =>
      f.periodEnd < day && (ctx.rocEngagements.has(f.engagementId) ? month === 11 : month % 3 === 1);
    const { rows } = await admin.billing.wip.list({
      sort: 'time',
      direction: 'desc',
      page: 1,
      pageSize: 200,
    });
    // Who was billed for time in this run, in order: the write-down is chosen among them below.
    const billedTime: { clientId: string; invoiceId: string }[] = [];
    for (const row of rows) {
      if (!row.time.value && !row.disbursements.count && !row.fees.count) continue;
      const wip = await admin.billing.wip.client({ clientId: row.client.id });
      const fees = wip.fees.filter(dueFee);
      if (!wip.time.length && !wip.disbursements.length && !fees.length) continue;
      const chosen = {
        timeEntryIds: wip.time.map((t) => t.id),
        fees: fees.map((f) => ({ engagementId: f.engagementId, periodStart: f.periodStart })),
        disbursementIds: wip.disbursements.map((d) => d.id),
        groupTimeBy: 'service' as const,
      };
      const draft = wip.drafts[0];
      const { invoiceId } = draft
        ? await admin.billing.wip.addToDraft({ invoiceId: draft.id, ...chosen })
        : await admin.billing.wip.createInvoice({ clientId: row.client.id, ...chosen });
      if (wip.time.length) billedTime.push({ clientId: row.client.id, invoiceId });
    }
    // The story needs exactly one bill written down, before the run's drafts are issued: the first
    // advised client's bill of this run, else (no advised client had time: which clients log time
    // before a run depends on the seeded week and the clients' random ids) the run's first bill
    // with time.
    if (writtenDown) return;
    const advised = new Set(ctx.cast.advised.map((c) => c.id));
    const chosen = billedTime.find((b) => advised.has(b.clientId)) ?? billedTime[0];
    if (!chosen) return;
    await writeDown(chosen.invoiceId);
    writtenDown = true;
  }

  /** The owner bills the advice below its standard value: a quarter off the time. */
  async function writeDown(invoiceId: string) {
    const { invoice, lines } = await owner.billing.invoices.get({ invoiceId });
    await owner.billing.invoices.update({
      invoiceId,
      lines: lines.map((l) => ({
        id: l.id,
        description: l.description,
        serviceId: l.serviceId,
        taxCode: l.taxCode,
        quantityMilli: l.quantityMilli,
        rate: l.rate,
        discount: l.kind === 'time' ? Math.round(l.amount / 4 / 100) * 100 : l.discount,
        taxRateBp: l.taxRateBp,
      })),
      dueDate: invoice.dueDate,
      placeOfSupply: invoice.placeOfSupply,
      zeroRated: invoice.zeroRated,
      notes: 'Advice on the restructuring: billed at the fee agreed with the promoter',
      terms: invoice.terms,
    });
  }

  /** A certificate billed twice by mistake: the second is voided with the reason. */
  async function duplicate(day: string) {
    const client = ctx.cast.duplicated;
    const line = {
      description: 'Net worth certificate for the visa application',
      taxCode: '998399',
      quantityMilli: 1000,
      rate: DUPLICATE_FEE,
      taxRateBp: 1800,
    };
    const first = await admin.billing.invoices.create({ clientId: client.id, lines: [line] });
    const { invoice } = await admin.billing.invoices.get({ invoiceId: first.id });
    await issued({ id: invoice.id, clientId: client.id, total: invoice.total }, day, true);
    const again = await admin.billing.invoices.create({ clientId: client.id, lines: [line] });
    await admin.billing.invoices.issue({ invoiceId: again.id, issueDate: day });
    await admin.billing.invoices.void({
      invoiceId: again.id,
      reason: `Raised twice by mistake: the certificate is billed on ${open.get(invoice.id)?.number}`,
    });
  }

  /** The month's billing run, on its second working day. */
  async function monthly(day: string) {
    if (runs === 0) await advance(day);
    if (day.slice(5, 7) === '11') await mcaFees(day);
    await billWip(day);
    await issueDrafts(day);
    if (runs === 3) await duplicate(day);
    runs += 1;
  }

  /** What came in, recorded by the admin: each client's money for the day in one receipt. */
  async function receipts(day: string) {
    const due = dues.filter((d) => d.day <= day);
    if (!due.length) return;
    dues.splice(0, dues.length, ...dues.filter((d) => d.day > day));
    const byClient = new Map<string, Array<{ invoice: TOpenInvoice; amount: number; on: string }>>();
    for (const d of due) {
      const invoice = open.get(d.invoiceId);
      if (!invoice || invoice.balance <= 0) continue;
      const amount = d.share === 'half' ? Math.round(invoice.balance / 200) * 100 : invoice.balance;
      const list = byClient.get(invoice.clientId) ?? [];
      list.push({ invoice, amount, on: d.day });
      byClient.set(invoice.clientId, list);
    }
    for (const [clientId, settled] of byClient) {
      const client = clientById.get(clientId) as TDemoClient;
      const total = settled.reduce((s, x) => s + x.amount, 0);
      const tds = tdsOn(client, total);
      const receivedOn = settled.map((s) => s.on).sort()[0] as string;
      const seed = `${clientId}:${receivedOn}`;
      const method = methodOf(client, seed);
      const reference = referenceOf(method, seed);
      const { id } = await admin.billing.payments.record({
        clientId,
        receivedOn,
        method,
        reference,
        amount: total - tds,
        tdsAmount: tds,
        tdsSection: tds ? TDS_SECTION : null,
        allocations: settled.map((s) => ({ invoiceId: s.invoice.id, amount: s.amount })),
      });
      if (tds) tdsPending.push({ id, receivedOn, reference, notes: '' });
      for (const s of settled) {
        s.invoice.balance -= s.amount;
        if (s.invoice.balance <= 0) open.delete(s.invoice.id);
      }
    }
  }

  /** The quarter's Form 16A are in: their payments' certificates marked received. */
  async function certificates(day: string) {
    const quarter = certificateQuarter(day);
    if (!quarter) return;
    const received = tdsPending.filter((p) => p.receivedOn >= quarter.from && p.receivedOn <= quarter.to);
    for (const p of received) {
      await admin.billing.payments.update({
        paymentId: p.id,
        reference: p.reference,
        notes: p.notes,
        tdsSection: TDS_SECTION,
        tdsCertificateReceived: true,
      });
    }
    tdsPending.splice(0, tdsPending.length, ...tdsPending.filter((p) => !received.includes(p)));
  }

  /** A fee corrected after issue: the owner raises a credit note for the part not owed. */
  async function correct(day: string) {
    if (!correction || correction.day > day) return;
    const { invoiceId } = correction;
    correction = { invoiceId, day: '9999-12-31' };
    const { lines } = await owner.billing.invoices.get({ invoiceId });
    const fee = lines.find((l) => l.kind === 'fee');
    // Only a fee is corrected: the client's next invoice, then.
    if (!fee) {
      correction = null;
      return;
    }
    const credit = await atServerTime(inMumbai(day, '12:00'), () =>
      owner.billing.invoices.creditNote({
        invoiceId,
        reason: `${fee.description}: the fee agreed for the month is ${Math.round(((fee.rate / 100) * 4) / 5)}, not ${fee.rate / 100}`,
        lines: [
          {
            description: `${fee.description}: fee corrected`,
            serviceId: fee.serviceId,
            taxCode: fee.taxCode,
            quantityMilli: 1000,
            rate: Math.round(fee.rate / 5),
            taxRateBp: fee.taxRateBp,
          },
        ],
      }),
    );
    const invoice = open.get(invoiceId);
    if (invoice) invoice.balance -= credit.total;
  }

  return {
    /**
     * Now: the time approved since the month's run is on a draft the admin is checking for one
     * client, and issued for another, to be handed over at this afternoon's meeting.
     */
    async finish(now: Date) {
      const at = new Date(now.getTime() - 2 * 3_600_000);
      await ctx.clock.during(at, new Date(at.getTime() + 60_000), async () => {
        const { rows } = await admin.billing.wip.list({
          sort: 'time',
          direction: 'desc',
          page: 1,
          pageSize: 10,
        });
        const [checking, handed] = rows.filter((r) => r.time.value > 0);
        for (const row of [checking, handed]) {
          if (!row) continue;
          const wip = await admin.billing.wip.client({ clientId: row.client.id });
          const made = await admin.billing.wip.createInvoice({
            clientId: row.client.id,
            timeEntryIds: wip.time.map((t) => t.id),
            groupTimeBy: 'service',
          });
          if (row === handed)
            await admin.billing.invoices.issue({ invoiceId: made.invoiceId, issueDate: ctx.today });
        }
      });
    },
    /** The desk's day, late in the morning, from the first month billed. */
    day(day: string): TClockStep | null {
      const from = inMumbai(day, '11:00');
      if (day < ctx.billFrom || from >= ctx.until || !ctx.calendar.firmOpen(day)) return null;
      return {
        from,
        to: new Date(Math.min(inMumbai(day, '13:00').getTime(), ctx.until.getTime())),
        run: async () => {
          if (day === workingDay(day, 2)) await monthly(day);
          await correct(day);
          await receipts(day);
          await certificates(day);
          await ctx.session.runJobs([INVOICE_MAIL]);
          await ctx.session.deliverMail();
        },
      };
    },
  };
}
