import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, count, eq, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { INVOICE_STATUS_LABELS } from '../../../../domain/billing/constants';
import {
  documentStatus,
  INVOICE_EXPORT_PATH,
  INVOICE_EXPORT_XLSX_PATH,
  INVOICE_KIND_LABELS,
  INVOICE_STATUS_FILTER_LABELS,
  type TInvoiceExportQuery,
  ZInvoiceExportQuery,
} from '../../../../domain/billing/invoices';
import { todayIn } from '../../../../domain/days';
import { createFormatter, isoDateTimeIn } from '../../../../domain/format';
import { actorOf, requestMeta, routeStaffScope } from '../../../auth';
import type { TDb } from '../../../db/client';
import { clients, invoices, orgs } from '../../../db/schema';
import { csvWriter, xlsxWriter } from '../../clients';
import { audit } from '../../system-log';
import { invoiceListColumns, invoiceListWhere, invoiceOrder } from './list';

const BATCH = 1000;

const HEADERS = [
  'Number',
  'Kind',
  'Status',
  'Client code',
  'Client',
  'Issue date',
  'Due date',
  'Currency',
  'Total',
  'Paid',
  'Balance',
  'Sent at',
];

/** Minor units as the plain major amount a spreadsheet reads: -39 paise is "-0.39". */
export function plainAmount(minor: number, digits: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (!digits) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

function describe(filter: TInvoiceExportQuery): string {
  const parts = [
    filter.search ? `search "${filter.search}"` : null,
    filter.status ? INVOICE_STATUS_FILTER_LABELS[filter.status] : null,
    filter.kind ? INVOICE_KIND_LABELS[filter.kind] : null,
    filter.clientId ? `client ${filter.clientId}` : null,
    filter.from ? `from ${filter.from}` : null,
    filter.to ? `to ${filter.to}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no filter';
}

const FORMATS = {
  csv: { path: INVOICE_EXPORT_PATH, label: 'CSV', type: 'text/csv; charset=utf-8' },
  xlsx: {
    path: INVOICE_EXPORT_XLSX_PATH,
    label: 'Excel',
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
} as const;

/**
 * GET /api/billing/invoices/export.{csv,xlsx}?{the list's filter}: every invoice and credit note
 * the list shows with that filter (an assigned-only member's clients only), streamed a batch at a
 * time; days ISO, amounts as plain major units. Each export is logged with its count and filter.
 */
export function registerInvoiceExport(app: FastifyInstance, deps: { db: TDb }) {
  for (const [ext, format] of Object.entries(FORMATS)) {
    app.get(
      format.path,
      { config: { auth: { staff: 'billing.view' }, link: 'billing.invoicesExport' } },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const parsed = ZInvoiceExportQuery.safeParse(req.query ?? {});
        if (!parsed.success) {
          return reply.code(400).send({
            error: 'BAD_REQUEST',
            message: parsed.error.issues[0]?.message ?? 'The filter is not valid',
          });
        }
        const filter = parsed.data;
        const [org] = await deps.db.select().from(orgs).where(eq(orgs.id, scope.orgId));
        const timeZone = org?.timeZone ?? 'UTC';
        const digits = createFormatter({
          country: org?.country ?? null,
          timeZone,
          currency: org?.currency ?? 'USD',
        }).currencyDigits;
        const until = new Date();
        const today = todayIn(timeZone, until);
        const where = and(invoiceListWhere(scope, filter, today), lte(invoices.createdAt, until));
        const join = and(eq(clients.orgId, invoices.orgId), eq(clients.id, invoices.clientId));
        const [totals] = await deps.db
          .select({ total: count() })
          .from(invoices)
          .innerJoin(clients, join)
          .where(where);
        const total = totals?.total ?? 0;
        await deps.db.transaction((tx) =>
          audit(tx, actorOf(scope, requestMeta(req)), {
            action: 'invoice.export',
            recordType: 'invoice',
            summary: `Exported ${total} invoice${total === 1 ? '' : 's'} to ${format.label} (${describe(filter)})`,
          }),
        );
        const records = async function* () {
          for (let offset = 0; ; offset += BATCH) {
            const rows = await deps.db
              .select(invoiceListColumns)
              .from(invoices)
              .innerJoin(clients, join)
              .where(where)
              .orderBy(...invoiceOrder(filter.sort, filter.direction))
              .limit(BATCH)
              .offset(offset);
            for (const r of rows) {
              yield [
                r.number ?? 'Draft',
                INVOICE_KIND_LABELS[r.kind],
                INVOICE_STATUS_LABELS[documentStatus(r, today)],
                r.clientCode,
                r.clientName,
                r.issueDate ?? '',
                r.dueDate ?? '',
                r.currency,
                plainAmount(r.total, digits),
                plainAmount(r.amountPaid, digits),
                plainAmount(r.balance, digits),
                r.sentAt ? isoDateTimeIn(r.sentAt, timeZone) : '',
              ];
            }
            if (rows.length < BATCH) return;
          }
        };
        reply
          .type(format.type)
          .header('content-disposition', `attachment; filename="invoices-${today}.${ext}"`)
          .header('cache-control', 'no-store')
          .header('x-total-count', String(total));
        if (ext === 'xlsx') {
          const xlsx = await xlsxWriter('Invoices', HEADERS);
          (async () => {
            for await (const cells of records()) xlsx.add(cells);
            await xlsx.end();
          })().catch((err) => {
            // Cut the download rather than end it as a valid but short workbook.
            req.log.error({ err }, 'invoice export failed');
            xlsx.stream.destroy(err);
          });
          return reply.send(xlsx.stream);
        }
        const csv = csvWriter(HEADERS);
        pipeline(Readable.from(records()), csv).catch((err) =>
          req.log.error({ err }, 'invoice export failed'),
        );
        return reply.send(csv);
      },
    );
  }
}
