import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { fiscalYearLabel, formatInvoiceNumber } from '../src/domain/billing/numbering';
import { gstStateOf, invoiceTotals } from '../src/domain/billing/totals';
import { feeMinor, minutesToMilli } from '../src/domain/billing/wip';
import { addDays } from '../src/domain/days';
import type { TDb } from '../src/server/db/client';
import {
  billingContext,
  dueFeePeriods,
  feeDescription,
  type TBillingContext,
  type TFeePeriodRow,
  taxContextOf,
  unbilledTime,
} from '../src/server/features/billing';
import { simulateMoney, type TMoneyClient, type TMoneyInvoice, type TPayer } from './generate-billing-money';
import { insertBilling } from './generate-billing-rows';
import { rowsOf } from './generate-people';
import { rng } from './generate-util';

/**
 * A year of billing for a firm the people and client-book generators made: the firm's GST profile,
 * fixed fees on three engagements in four billed each period, the time clients' approved billable
 * time billed month by month (entries linked to the line that bills them, write-downs on some lines),
 * one client billed twice a week for a long statement, then payments as each client's habits have
 * them (see generate-billing-money.ts). The fee periods and the time billed are what the product's
 * own WIP queries (wip/sql.ts) answer, and every total comes from domain/billing/totals.ts, so the
 * invoices are the ones the WIP screen would have made. The current month's fees and the last two
 * months' time are left in work in progress.
 */
export type TBillingBook = {
  today: string;
  /** The member the invoices and payments are made by (the owner). */
  createdBy: string;
  /** The client billed twice a week: about ten pages of statement for the year. */
  statementClientCode: string;
  statementInvoices: number;
};

export type TLinePlan = {
  id: string;
  kind: 'time' | 'fee' | 'custom';
  description: string;
  serviceId: string | null;
  projectId: string | null;
  engagementId: string | null;
  periodStart: string | null;
  taxCode: string;
  taxRateBp: number;
  quantityMilli: number;
  rate: number;
  discount: number;
  standardValue: number;
  amount: number;
  cgst: number;
  sgst: number;
  igst: number;
  otherTax: number;
  released: boolean;
  /** A time line's entries: the client, project and month it bills. */
  bills?: { projectId: string | null; month: string; entries: number };
};

export type TInvoicePlan = TMoneyInvoice & {
  series: string | null;
  fiscalYear: string | null;
  seq: number | null;
  number: string | null;
  dueDate: string | null;
  placeOfSupply: string | null;
  taxRoundOff: number;
  taxTotal: number;
  billTo: string | null;
  notes: string;
  terms: string;
  recurring: boolean;
  voidedAt: Date | null;
  voidReason: string | null;
  createdAt: Date;
  lines: TLinePlan[];
};

type TClientRow = {
  id: string;
  code: string;
  name: string;
  type: string;
  tax_ids: { kind: string; value: string }[];
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
};

type TTimeGroup = {
  client_id: string;
  month: string;
  project_id: string | null;
  minutes: number;
  value: string;
  n: number;
  first: string;
  last: string;
  rates: number;
  rate: number;
  service_id: string | null;
  project_name: string | null;
  service_name: string | null;
  tax_code: string | null;
  tax_rate_bp: number | null;
};

const FIRM_GSTIN = '27AAAFS1234K1Z5';
/** Morning in India on a day, as invoices are issued. */
const at = (day: string, minutes = 0) => new Date(Date.parse(`${day}T04:00:00Z`) + minutes * 60_000);
const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
const addMonths = (month: string, n: number) => {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
};

/** The firm's billing profile, the services' SAC code and rate, some clients' GSTINs, the fees. */
async function firmSetup(db: TDb, orgId: string, billFrom: string, statementClientCode: string) {
  await db.execute(sql`
    update orgs set country = 'IN', fiscal_year_start_month = 4,
      tax_ids = ${JSON.stringify([
        { kind: 'GSTIN', value: FIRM_GSTIN },
        { kind: 'PAN', value: FIRM_GSTIN.slice(2, 12) },
      ])}::jsonb,
      address_line1 = '401 Nariman Point', city = 'Mumbai', region = 'Maharashtra', postal_code = '400021'
    where id = ${orgId}`);
  await db.execute(sql`
    insert into billing_settings (org_id, tax_regime, gst_state, default_tax_rate_bp, round_totals, due_days,
      terms, bank_details, upi_vpa, upi_payee, reminders_enabled, remind_before_days, remind_every_days)
    values (${orgId}, 'gst', '27', 1800, true, 15, 'Payable within 15 days of the invoice date.',
      'HDFC Bank, Nariman Point. A/c 50200012345678, IFSC HDFC0000001', 'firm@hdfcbank', 'Bench & Co',
      true, 3, 7)
    on conflict (org_id) do nothing`);
  await db.execute(sql`update services set tax_code = '998222', tax_rate_bp = 1800 where org_id = ${orgId}`);
  // A third of the firms among the clients are registered for GST, most in the firm's state.
  await db.execute(sql`
    update clients set tax_ids = tax_ids || jsonb_build_array(jsonb_build_object('kind', 'GSTIN', 'value',
      (array['27','27','27','29','07','33'])[1 + (hashtext(id::text) & 2147483647) % 6] || 'ABCDE'
        || lpad(((hashtext(id::text) & 2147483647) % 10000)::text, 4, '0') || 'F1Z5'))
    where org_id = ${orgId} and type in ('company', 'llp', 'partnership') and (hashtext(code) & 2147483647) % 3 = 0`);
  await db.execute(
    sql`update clients set type = 'company' where org_id = ${orgId} and code = ${statementClientCode}`,
  );
  // Engagements older than billing bill from the month it arrived (as migration 0046 set them); one in
  // eight is not billed, one in eight hourly, the rest a fixed fee of one of five sizes.
  await db.execute(sql`
    update client_services set bill_from = ${billFrom},
      billing_mode = case (hashtext(id::text) & 2147483647) % 8 when 0 then 'none' when 1 then 'hourly' else 'fixed' end,
      fee = (array[2500, 5000, 7500, 12000, 25000])[1 + (hashtext(id::text) & 2147483647) / 8 % 5]
    where org_id = ${orgId}`);
}

/** Approved billable time not yet billed, by client, month and project: a line each, as WIP groups it. */
async function timeGroups(db: TDb, orgId: string, before: string) {
  return rowsOf<TTimeGroup>(
    await db.execute(sql`
      select t.client_id, to_char(t.date::date, 'YYYY-MM-01') as month, t.project_id,
        sum(t.minutes)::int as minutes, sum(t.value)::text as value, count(*)::int as n,
        min(t.date) as first, max(t.date) as last,
        count(distinct coalesce(t.bill_rate, 0))::int as rates, min(coalesce(t.bill_rate, 0))::int as rate,
        case when count(distinct t.service_id) = 1 and count(t.service_id) = count(*)
             then min(t.service_id::text) end as service_id,
        min(p.name) as project_name, min(s.name) as service_name, min(s.tax_code) as tax_code,
        min(s.tax_rate_bp) as tax_rate_bp
      from (${unbilledTime({ orgId })}) t
      left join projects p on p.org_id = t.org_id and p.id = t.project_id
      left join services s on s.org_id = t.org_id and s.id = t.service_id
      where t.mode = 'hourly' and t.date < ${before}
      group by 1, 2, 3
      order by 1, 2, 3`),
  );
}

const emptyLine = (): Omit<TLinePlan, 'kind' | 'description' | 'quantityMilli' | 'rate'> => ({
  id: uuidv7(),
  serviceId: null,
  projectId: null,
  engagementId: null,
  periodStart: null,
  taxCode: '',
  taxRateBp: 0,
  discount: 0,
  standardValue: 0,
  amount: 0,
  cgst: 0,
  sgst: 0,
  igst: 0,
  otherTax: 0,
  released: false,
});

/** A time line as wip/lines.ts timeLines makes one for a project's entries (grouped by project). */
function timeLine(ctx: TBillingContext, g: TTimeGroup, writeDown: boolean): TLinePlan {
  const value = Number(g.value);
  const quantityMilli = Math.max(1, minutesToMilli(g.minutes));
  const rate = g.rates === 1 ? g.rate : Math.round((value * 1000) / quantityMilli);
  const what = g.project_name ?? (g.service_id ? g.service_name : null) ?? 'Other work';
  const when =
    g.first === g.last
      ? `on ${ctx.format.date(g.first)}`
      : `from ${ctx.format.date(g.first)} to ${ctx.format.date(g.last)}`;
  const gross = Math.round((quantityMilli * rate) / 1000);
  return {
    ...emptyLine(),
    kind: 'time',
    description: `${what}: work ${when}`.slice(0, 500),
    serviceId: g.service_id,
    projectId: g.project_id,
    taxCode: g.tax_code ?? '',
    taxRateBp: g.tax_rate_bp ?? ctx.settings.defaultTaxRateBp,
    quantityMilli,
    rate,
    // A write-down: the partner took a tenth off, realization shows it.
    discount: writeDown ? Math.round(gross / 10) : 0,
    standardValue: value,
    bills: { projectId: g.project_id, month: g.month, entries: g.n },
  };
}

function feeLine(ctx: TBillingContext, f: TFeePeriodRow): TLinePlan {
  const fee = feeMinor(f.fee, ctx.digits) ?? 0;
  return {
    ...emptyLine(),
    kind: 'fee',
    description: feeDescription(f),
    serviceId: f.service_id,
    projectId: f.project_id,
    engagementId: f.engagement_id,
    periodStart: f.period_start,
    taxCode: f.tax_code,
    taxRateBp: f.tax_rate_bp ?? ctx.settings.defaultTaxRateBp,
    quantityMilli: 1000,
    rate: fee,
    standardValue: fee,
  };
}

export async function generateBilling(db: TDb, orgId: string, book: TBillingBook) {
  const random = rng(35);
  const today = book.today;
  const thisMonth = monthStart(today);
  const billFrom = addMonths(thisMonth, -11);
  const timeBefore = addMonths(thisMonth, -1);
  await firmSetup(db, orgId, billFrom, book.statementClientCode);
  await db.execute(sql`analyze`);
  const ctx = await billingContext(db, orgId);

  const clients = rowsOf<TClientRow>(
    await db.execute(sql`
      select id, code, name, type, tax_ids, address_line1, address_line2, city, region, postal_code, country
      from clients where org_id = ${orgId} order by code`),
  );
  const clientOf = new Map(clients.map((c) => [c.id, c]));
  const statementClient = clients.find((c) => c.code === book.statementClientCode);
  if (!statementClient) throw new Error(`no client ${book.statementClientCode}`);

  const docs: TInvoicePlan[] = [];
  const newDoc = (
    clientId: string,
    issueDate: string | null,
    lines: TLinePlan[],
    extra: Partial<TInvoicePlan> = {},
  ) => {
    const client = clientOf.get(clientId) as TClientRow;
    const doc: TInvoicePlan = {
      id: '',
      clientId,
      kind: 'invoice',
      status: issueDate ? 'issued' : 'draft',
      issueDate,
      subtotal: 0,
      total: 0,
      taxTotal: 0,
      taxRoundOff: 0,
      sentAt: null,
      creditForId: null,
      amountPaid: 0,
      balance: 0,
      series: null,
      fiscalYear: null,
      seq: null,
      number: null,
      dueDate: issueDate ? addDays(issueDate, ctx.settings.dueDays) : null,
      placeOfSupply: gstStateOf(client.tax_ids),
      billTo: null,
      notes: '',
      terms: ctx.settings.terms,
      recurring: false,
      voidedAt: null,
      voidReason: null,
      createdAt: issueDate ? at(issueDate, docs.length % 240) : at(addDays(today, -2), docs.length % 240),
      lines,
      ...extra,
    };
    docs.push(doc);
    return doc;
  };

  // Fixed fees: every period due and unbilled, as WIP lists them, on one invoice per client and month
  // (issued in the first week of the month); this month's wait in WIP, a few already on a draft.
  const fees = rowsOf<TFeePeriodRow>(
    await db.execute(dueFeePeriods({ orgId, now: new Date(`${today}T12:00:00Z`) })),
  );
  const feeInvoices = new Map<string, TFeePeriodRow[]>();
  for (const f of fees) {
    // Periods that began before billing arrived (a year, a quarter) are billed the month it arrived.
    const month = monthStart(f.period_start) < billFrom ? billFrom : monthStart(f.period_start);
    const key = `${f.client_id}|${month}`;
    feeInvoices.set(key, [...(feeInvoices.get(key) ?? []), f]);
  }
  let drafts = 0;
  for (const [key, rows] of feeInvoices) {
    const [clientId, month] = key.split('|') as [string, string];
    rows.sort(
      (a, b) =>
        a.period_start.localeCompare(b.period_start) || a.engagement_id.localeCompare(b.engagement_id),
    );
    const lines = rows.map((f) => feeLine(ctx, f));
    if (month < thisMonth) {
      const issueDate = addDays(month, Math.floor(random() * 6));
      const doc = newDoc(clientId, issueDate, lines);
      // A void and a corrected copy, now and then: the void one's lines are released.
      if (random() < 1 / 700 && addDays(issueDate, 4) <= today) {
        doc.status = 'void';
        doc.voidedAt = at(addDays(issueDate, 4));
        doc.voidReason = 'Raised on the wrong billing address';
        for (const l of doc.lines) l.released = true;
        newDoc(
          clientId,
          addDays(issueDate, 4),
          rows.map((f) => feeLine(ctx, f)),
        );
      }
    } else if (random() < 1 / 40) {
      newDoc(clientId, null, lines);
      drafts += 1;
    }
  }

  // Time: each time client's month of approved billable time, a line per project, issued early the
  // month after; one line in eight written down by a tenth.
  const groups = await timeGroups(db, orgId, timeBefore);
  const timeInvoices = new Map<string, TTimeGroup[]>();
  for (const g of groups) {
    const key = `${g.client_id}|${g.month}`;
    timeInvoices.set(key, [...(timeInvoices.get(key) ?? []), g]);
  }
  for (const [key, list] of timeInvoices) {
    const [clientId, month] = key.split('|') as [string, string];
    const issueDate = addDays(addMonths(month, 1), 2 + Math.floor(random() * 5));
    newDoc(
      clientId,
      issueDate,
      list.map((g) => timeLine(ctx, g, random() < 1 / 8)),
    );
  }

  // The statement client: audit support billed twice a week besides its fees.
  const step = Math.max(1, Math.floor(365 / book.statementInvoices));
  for (
    let k = 0, day = addDays(billFrom, 1);
    k < book.statementInvoices && day < today;
    k++, day = addDays(day, step)
  ) {
    newDoc(statementClient.id, day, [
      {
        ...emptyLine(),
        kind: 'custom',
        description: `Audit support: site visit ${k + 1}`,
        taxCode: '998222',
        taxRateBp: 1800,
        quantityMilli: 1000 * (1 + (k % 3)),
        rate: 2_500_000 + (k % 7) * 500_000,
      },
    ]);
  }

  // Totals by the domain's arithmetic, the client as printed, sent the next day (most).
  for (const doc of docs) priceDoc(ctx, doc, clientOf.get(doc.clientId) as TClientRow, random);

  // Credit notes: one invoice in 300 gets a fifth of its first line back a few days after issue.
  const creditFor = new Map<TInvoicePlan, TInvoicePlan>();
  for (const doc of [...docs]) {
    if (doc.status !== 'issued' && doc.status !== 'sent') continue;
    if (random() >= 1 / 300) continue;
    const on = addDays(doc.issueDate as string, 5);
    if (on > today) continue;
    const first = doc.lines[0] as TLinePlan;
    const note = newDoc(
      doc.clientId,
      on,
      [
        {
          ...emptyLine(),
          kind: 'custom',
          description: `Discount agreed on ${first.description}`.slice(0, 500),
          serviceId: first.serviceId,
          taxCode: first.taxCode,
          taxRateBp: first.taxRateBp,
          quantityMilli: 1000,
          rate: Math.max(100, Math.round(first.amount / 5)),
        },
      ],
      { kind: 'credit_note', notes: 'Discount agreed after issue', terms: '', dueDate: on },
    );
    note.placeOfSupply = doc.placeOfSupply;
    priceDoc(ctx, note, clientOf.get(doc.clientId) as TClientRow, random);
    note.sentAt = null;
    note.status = 'issued';
    creditFor.set(note, doc);
  }

  // Ids and numbers in the order of issue: each series runs without a gap in each fiscal year.
  const issued = docs
    .filter((d) => d.issueDate)
    .sort(
      (a, b) =>
        (a.issueDate as string).localeCompare(b.issueDate as string) ||
        a.createdAt.getTime() - b.createdAt.getTime(),
    );
  const counters = new Map<string, number>();
  for (const d of issued) {
    d.id = uuidv7();
    d.series = d.kind === 'credit_note' ? ctx.settings.creditNotePrefix : ctx.settings.invoicePrefix;
    d.fiscalYear = fiscalYearLabel(d.issueDate as string, ctx.firm.fiscalYearStartMonth);
    const key = `${d.series}|${d.fiscalYear}`;
    d.seq = (counters.get(key) ?? 0) + 1;
    counters.set(key, d.seq);
    d.number = formatInvoiceNumber(d.series, d.fiscalYear, d.seq, ctx.settings.seqDigits);
  }
  for (const d of docs) if (!d.id) d.id = uuidv7();
  for (const [note, original] of creditFor) note.creditForId = original.id;

  const moneyClients: TMoneyClient[] = clients.map((c, i) => ({
    id: c.id,
    payer: c.id === statementClient.id ? 'prompt' : payerOf(i),
    deductsTds: ['company', 'llp', 'partnership', 'trust'].includes(c.type),
  }));
  const money = simulateMoney(moneyClients, docs, { today, from: billFrom, random, newId: uuidv7 });

  const linked = await insertBilling(db, orgId, {
    docs,
    payments: money.payments,
    allocations: money.allocations,
    counters,
    createdBy: book.createdBy,
  });
  return {
    invoices: docs.filter((d) => d.kind === 'invoice').length,
    creditNotes: docs.filter((d) => d.kind === 'credit_note').length,
    drafts,
    void: docs.filter((d) => d.status === 'void').length,
    lines: docs.reduce((s, d) => s + d.lines.length, 0),
    payments: money.payments.length,
    allocations: money.allocations.length,
    timeLinked: linked,
    billFrom,
    statementClientId: statementClient.id,
  };
}

/** Most clients pay on time; some late, some in parts, a few slow, a couple never; a few on retainer. */
function payerOf(i: number): TPayer {
  const r = ((i * 2_654_435_761) >>> 0) % 100;
  if (r < 57) return 'prompt';
  if (r < 77) return 'late';
  if (r < 87) return 'partial';
  if (r < 95) return 'slow';
  if (r < 97) return 'never';
  return 'retainer';
}

function addressLines(c: TClientRow): string[] {
  const cityLine = [c.city, c.region, c.postal_code].filter(Boolean).join(', ');
  return [c.address_line1, c.address_line2, cityLine, c.country].filter((l): l is string => !!l);
}

/** The invoice's totals from its lines (tax by its place of supply), frozen as issue freezes them. */
function priceDoc(ctx: TBillingContext, doc: TInvoicePlan, client: TClientRow, random: () => number) {
  const tax = taxContextOf(ctx, { taxRegime: 'gst', placeOfSupply: doc.placeOfSupply, zeroRated: false });
  const totals = invoiceTotals(doc.lines, tax);
  doc.lines.forEach((line, i) => {
    const t = totals.lines[i];
    if (!t) return;
    Object.assign(line, { amount: t.amount, cgst: t.cgst, sgst: t.sgst, igst: t.igst, otherTax: t.otherTax });
  });
  doc.subtotal = totals.subtotal;
  doc.taxTotal = totals.taxTotal;
  doc.taxRoundOff = totals.roundOff;
  doc.total = totals.total;
  doc.balance = doc.status === 'void' ? 0 : totals.total;
  if (!doc.issueDate) return;
  doc.billTo = JSON.stringify({
    name: client.name,
    code: client.code,
    addressLines: addressLines(client),
    taxIds: client.tax_ids,
  });
  if (doc.status === 'issued' && random() < 0.95) {
    doc.sentAt = at(addDays(doc.issueDate, random() < 0.7 ? 0 : 1), 90);
    doc.status = 'sent';
  }
}
