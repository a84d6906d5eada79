import { sql } from 'drizzle-orm';
import type { TDb } from '../src/server/db/client';
import type { TInvoicePlan, TLinePlan } from './generate-billing';
import type { TAllocationRow, TPaymentRow } from './generate-billing-money';
import { bulkInsert, type TColumn } from './generate-bulk';
import { rowsOf } from './generate-people';

// The billing generator's rows into the database: invoices, lines, payments, allocations and the
// counters, then the time entries linked to the lines that bill them and each entry's share of its
// line (what issue.ts shareOutTime leaves), then a check that every balance is its total less its
// live allocations.

const INVOICE_COLUMNS: TColumn<TInvoicePlan & { by: string }>[] = [
  ['id', 'uuid', (d) => d.id],
  ['client_id', 'uuid', (d) => d.clientId],
  ['kind', 'text', (d) => d.kind],
  ['status', 'text', (d) => d.status],
  ['series', 'text', (d) => d.series],
  ['fiscal_year', 'text', (d) => d.fiscalYear],
  ['seq', 'int', (d) => d.seq],
  ['number', 'text', (d) => d.number],
  ['issue_date', 'date', (d) => d.issueDate],
  ['due_date', 'date', (d) => d.dueDate],
  ['currency', 'text', () => 'INR'],
  ['tax_regime', 'text', () => 'gst'],
  ['place_of_supply', 'text', (d) => d.placeOfSupply],
  ['subtotal', 'bigint', (d) => d.subtotal],
  ['tax_total', 'bigint', (d) => d.taxTotal],
  ['round_off', 'bigint', (d) => d.taxRoundOff],
  ['total', 'bigint', (d) => d.total],
  ['amount_paid', 'bigint', (d) => d.amountPaid],
  ['balance', 'bigint', (d) => d.balance],
  ['bill_to', 'jsonb', (d) => d.billTo],
  ['notes', 'text', (d) => d.notes],
  ['terms', 'text', (d) => d.terms],
  ['credit_for_id', 'uuid', (d) => d.creditForId],
  ['sent_at', 'timestamptz', (d) => d.sentAt],
  ['issued_at', 'timestamptz', (d) => (d.issueDate ? d.createdAt : null)],
  ['issued_by', 'uuid', (d) => (d.issueDate ? d.by : null)],
  ['voided_at', 'timestamptz', (d) => d.voidedAt],
  ['void_reason', 'text', (d) => d.voidReason],
  ['created_by', 'uuid', (d) => d.by],
  ['created_at', 'timestamptz', (d) => d.createdAt],
];

type TLineRow = TLinePlan & { invoiceId: string; clientId: string; position: number; createdAt: Date };
const LINE_COLUMNS: TColumn<TLineRow>[] = [
  ['id', 'uuid', (l) => l.id],
  ['invoice_id', 'uuid', (l) => l.invoiceId],
  ['position', 'smallint', (l) => l.position],
  ['kind', 'text', (l) => l.kind],
  ['description', 'text', (l) => l.description],
  ['service_id', 'uuid', (l) => l.serviceId],
  ['project_id', 'uuid', (l) => l.projectId],
  ['engagement_id', 'uuid', (l) => l.engagementId],
  ['period_start', 'date', (l) => l.periodStart],
  ['tax_code', 'text', (l) => l.taxCode],
  ['quantity_milli', 'bigint', (l) => l.quantityMilli],
  ['rate', 'bigint', (l) => l.rate],
  ['discount', 'bigint', (l) => l.discount],
  ['amount', 'bigint', (l) => l.amount],
  ['standard_value', 'bigint', (l) => l.standardValue],
  ['tax_rate_bp', 'int', (l) => l.taxRateBp],
  ['cgst', 'bigint', (l) => l.cgst],
  ['sgst', 'bigint', (l) => l.sgst],
  ['igst', 'bigint', (l) => l.igst],
  ['other_tax', 'bigint', (l) => l.otherTax],
  ['released', 'boolean', (l) => l.released],
  ['created_at', 'timestamptz', (l) => l.createdAt],
];

const PAYMENT_COLUMNS: TColumn<TPaymentRow & { by: string }>[] = [
  ['id', 'uuid', (p) => p.id],
  ['client_id', 'uuid', (p) => p.clientId],
  ['kind', 'text', (p) => p.kind],
  ['received_on', 'date', (p) => p.receivedOn],
  ['method', 'text', (p) => p.method],
  ['reference', 'text', (p) => p.reference],
  ['currency', 'text', () => 'INR'],
  ['amount', 'bigint', (p) => p.amount],
  ['tds_amount', 'bigint', (p) => p.tdsAmount],
  ['tds_section', 'text', (p) => p.tdsSection],
  ['tds_certificate_received', 'boolean', (p) => p.tdsCertificateReceived],
  ['bank_charges', 'bigint', (p) => p.bankCharges],
  ['notes', 'text', (p) => p.notes],
  ['reversed_at', 'timestamptz', (p) => p.reversedAt],
  ['reversed_by', 'uuid', (p) => (p.reversedAt ? p.by : null)],
  ['reverse_reason', 'text', (p) => p.reverseReason],
  ['created_by', 'uuid', (p) => p.by],
  ['created_at', 'timestamptz', (p) => new Date(`${p.receivedOn}T06:30:00Z`)],
];

const ALLOCATION_COLUMNS: TColumn<TAllocationRow & { by: string }>[] = [
  ['id', 'uuid', (a) => a.id],
  ['client_id', 'uuid', (a) => a.clientId],
  ['invoice_id', 'uuid', (a) => a.invoiceId],
  ['payment_id', 'uuid', (a) => a.paymentId],
  ['credit_note_id', 'uuid', (a) => a.creditNoteId],
  ['amount', 'bigint', (a) => a.amount],
  ['allocated_on', 'date', (a) => a.allocatedOn],
  ['reversed_at', 'timestamptz', (a) => a.reversedAt],
  ['created_by', 'uuid', (a) => a.by],
  ['created_at', 'timestamptz', (a) => new Date(`${a.allocatedOn}T06:30:00Z`)],
];

export async function insertBilling(
  db: TDb,
  orgId: string,
  data: {
    docs: TInvoicePlan[];
    payments: TPaymentRow[];
    allocations: TAllocationRow[];
    counters: Map<string, number>;
    createdBy: string;
  },
): Promise<number> {
  const by = data.createdBy;
  // Originals before their credit notes (the credit_for foreign key), drafts last.
  const docs = [...data.docs].sort(
    (a, b) => (a.issueDate ?? '9999').localeCompare(b.issueDate ?? '9999') || a.id.localeCompare(b.id),
  );
  await bulkInsert(
    db,
    'invoices',
    orgId,
    INVOICE_COLUMNS,
    docs.map((d) => ({ ...d, by })),
  );
  const lines: TLineRow[] = docs.flatMap((d) =>
    d.lines.map((l, position) => ({
      ...l,
      invoiceId: d.id,
      clientId: d.clientId,
      position,
      createdAt: d.createdAt,
    })),
  );
  await bulkInsert(db, 'invoice_lines', orgId, LINE_COLUMNS, lines);
  await bulkInsert(
    db,
    'payments',
    orgId,
    PAYMENT_COLUMNS,
    data.payments.map((p) => ({ ...p, by })),
  );
  await bulkInsert(
    db,
    'allocations',
    orgId,
    ALLOCATION_COLUMNS,
    data.allocations.map((a) => ({ ...a, by })),
  );
  for (const [key, last] of data.counters) {
    const [series, fiscalYear] = key.split('|');
    await db.execute(sql`
      insert into invoice_counters (org_id, series, fiscal_year, last_seq)
      values (${orgId}, ${series}, ${fiscalYear}, ${last})`);
  }
  const linked = await linkTime(db, orgId, lines);
  await checkBalances(db, orgId);
  return linked;
}

/** Each time line's entries (its client's approved billable time of that project and month) point at it. */
async function linkTime(db: TDb, orgId: string, lines: TLineRow[]): Promise<number> {
  const timeLines = lines.filter((l) => l.bills);
  const expected = timeLines.reduce((s, l) => s + (l.bills?.entries ?? 0), 0);
  await db.execute(sql`drop table if exists bench_time_lines`);
  await db.execute(
    sql`create table bench_time_lines (org_id uuid, line_id uuid, client_id uuid, project_id uuid, month date)`,
  );
  const cols: TColumn<TLineRow>[] = [
    ['line_id', 'uuid', (l) => l.id],
    ['client_id', 'uuid', (l) => l.clientId],
    ['project_id', 'uuid', (l) => l.bills?.projectId ?? null],
    ['month', 'date', (l) => l.bills?.month ?? null],
  ];
  await bulkInsert(db, 'bench_time_lines', orgId, cols, timeLines);
  // Fresh tables have no statistics: without them the planner loops over the entries once per line.
  await db.execute(sql`analyze bench_time_lines, invoices, invoice_lines, allocations`);
  const result = await db.execute(sql`
    update timesheet_entries te set invoice_line_id = b.line_id
    from bench_time_lines b
    where te.org_id = ${orgId} and te.client_id = b.client_id and te.project_id is not distinct from b.project_id
      and te.date >= b.month and te.date < (b.month + interval '1 month')::date
      and te.billable and te.status = 'approved' and te.invoice_line_id is null`);
  await db.execute(sql`drop table bench_time_lines`);
  // Issue shares a line's amount over its entries by standard value, largest remainder first.
  await db.execute(sql`
    with e as (
      select te.id, te.invoice_line_id as line_id, l.amount,
             round(te.minutes::numeric * coalesce(te.bill_rate, 0) / 60) as v
      from timesheet_entries te
      join invoice_lines l on l.org_id = te.org_id and l.id = te.invoice_line_id
      join invoices i on i.org_id = l.org_id and i.id = l.invoice_id and i.status <> 'draft'
      where te.org_id = ${orgId} and te.invoice_line_id is not null
    ), x as (
      select e.*, case when sum(v) over w > 0 then e.amount * v / sum(v) over w
                       else e.amount::numeric / count(*) over w end as exact
      from e window w as (partition by line_id)
    ), y as (
      select x.id, floor(x.exact) as base,
             x.amount - sum(floor(x.exact)) over (partition by x.line_id) as left_over,
             row_number() over (partition by x.line_id order by x.exact - floor(x.exact) desc, x.id) as rk
      from x
    )
    update timesheet_entries te set billed_amount = y.base + case when y.rk <= y.left_over then 1 else 0 end
    from y where te.org_id = ${orgId} and te.id = y.id`);
  const counted = result as { rowCount?: number; affectedRows?: number };
  const linked = Number(counted.rowCount ?? counted.affectedRows ?? 0);
  // The entries linked are the ones the lines were priced from, or the lines are wrong.
  if (linked !== expected) throw new Error(`${linked} time entries linked, the lines bill ${expected}`);
  return linked;
}

/** Every issued invoice's balance is its total less its live allocations, or the data is wrong. */
async function checkBalances(db: TDb, orgId: string) {
  const [row] = rowsOf<{ bad: number }>(
    await db.execute(sql`
      select count(*)::int as bad from invoices i
      left join (select invoice_id, sum(amount) as settled from allocations
                 where org_id = ${orgId} and reversed_at is null group by invoice_id) a on a.invoice_id = i.id
      where i.org_id = ${orgId} and i.kind = 'invoice' and i.status not in ('draft', 'void')
        and i.balance <> i.total - coalesce(a.settled, 0)`),
  );
  if (row?.bad) throw new Error(`${row.bad} invoices whose balance is not their total less allocations`);
}
