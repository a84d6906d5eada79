import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, count, eq, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PAYMENT_METHOD_LABELS } from '../../../../domain/billing/constants';
import { PAYMENT_EXPORT_PATHS } from '../../../../domain/billing/payment-list';
import {
  amountText,
  TDS_FILTER_LABELS,
  type TPaymentFilter,
  ZPaymentFilter,
} from '../../../../domain/billing/payments';
import { todayIn } from '../../../../domain/days';
import { actorOf, requestMeta, routeStaffScope, type TScope } from '../../../auth';
import type { TDb } from '../../../db/client';
import { clients, payments } from '../../../db/schema';
import { csvWriter, xlsxWriter } from '../../clients';
import { audit } from '../../system-log';
import { billingContext } from '../context';
import { paymentRows, paymentShape, paymentWhere } from './list';

const BATCH = 1000;

const HEADERS = [
  'Date',
  'Client code',
  'Client',
  'Kind',
  'Method',
  'Reference',
  'Currency',
  'Amount',
  'TDS',
  'TDS section',
  'TDS certificate',
  'Bank charges',
  'Allocated',
  'Unallocated',
  'Reversed on',
  'Reason reversed',
  'Notes',
];

function describe(f: TPaymentFilter) {
  const parts = [
    f.from || f.to ? `${f.from ?? 'start'} to ${f.to ?? 'today'}` : '',
    f.method ? PAYMENT_METHOD_LABELS[f.method] : '',
    f.kind ?? '',
    f.clientId ? 'one client' : '',
    f.tds ? TDS_FILTER_LABELS[f.tds] : '',
    f.reversed === 'yes' ? 'reversed' : f.reversed === 'no' ? 'not reversed' : '',
    f.search ? `search "${f.search}"` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no filter';
}

/** Every payment of the filter, a batch at a time, as it stood when the export began. */
async function* records(
  db: TDb,
  scope: TScope,
  f: TPaymentFilter,
  until: Date,
  digits: number,
  currency: string,
) {
  const money = (v: number) => amountText(v, digits);
  for (let offset = 0; ; offset += BATCH) {
    const rows = await paymentRows(db, scope, f, { limit: BATCH, offset }, until);
    for (const raw of rows) {
      const r = paymentShape(raw);
      yield [
        r.receivedOn,
        r.client.code,
        r.client.name,
        r.kind === 'refund' ? 'Refund' : 'Receipt',
        PAYMENT_METHOD_LABELS[r.method],
        r.reference,
        currency,
        money(r.amount),
        money(r.tdsAmount),
        r.tdsSection ?? '',
        r.tdsAmount > 0 ? (r.tdsCertificateReceived ? 'Received' : 'Pending') : '',
        money(r.bankCharges),
        money(r.allocated),
        money(r.unallocated),
        r.reversedAt ? r.reversedAt.toISOString().slice(0, 10) : '',
        r.reverseReason ?? '',
        r.notes,
      ];
    }
    if (rows.length < BATCH) return;
  }
}

/**
 * GET /api/billing/payments/export.{csv|xlsx}?{the list's filter}: the payments the caller sees on
 * /billing/payments with that filter (every page), amounts as plain decimals of the firm's currency.
 * Each export is logged with its count and filter.
 */
export function registerPaymentExport(app: FastifyInstance, deps: { db: TDb }) {
  for (const [ext, path] of Object.entries(PAYMENT_EXPORT_PATHS)) {
    app.get(
      path,
      { config: { auth: { staff: 'billing.view' }, link: 'payments.export' } },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const parsed = ZPaymentFilter.safeParse(req.query ?? {});
        if (!parsed.success) {
          return reply.code(400).send({
            error: 'BAD_REQUEST',
            message: parsed.error.issues[0]?.message ?? 'The filter is not valid',
          });
        }
        const filter = parsed.data;
        const until = new Date();
        const [[totals], ctx] = await Promise.all([
          deps.db
            .select({ total: count() })
            .from(payments)
            .innerJoin(clients, and(eq(clients.orgId, payments.orgId), eq(clients.id, payments.clientId)))
            .where(and(paymentWhere(scope, filter), lte(payments.createdAt, until))),
          billingContext(deps.db, scope.orgId),
        ]);
        const total = totals?.total ?? 0;
        await deps.db.transaction((tx) =>
          audit(tx, actorOf(scope, requestMeta(req)), {
            action: 'payment.export',
            recordType: 'payment',
            summary: `Exported ${total} payment${total === 1 ? '' : 's'} to ${ext === 'xlsx' ? 'Excel' : 'CSV'} (${describe(filter)})`,
          }),
        );
        const rows = () => records(deps.db, scope, filter, until, ctx.digits, ctx.firm.currency);
        reply
          .type(
            ext === 'csv'
              ? 'text/csv; charset=utf-8'
              : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          )
          .header(
            'content-disposition',
            `attachment; filename="payments-${todayIn(ctx.firm.timeZone, until)}.${ext}"`,
          )
          .header('cache-control', 'no-store')
          .header('x-total-count', String(total));
        if (ext === 'xlsx') {
          const xlsx = await xlsxWriter('Payments', HEADERS);
          (async () => {
            for await (const cells of rows()) xlsx.add(cells);
            await xlsx.end();
          })().catch((err) => {
            // Cut the download rather than end it as a valid but short workbook.
            req.log.error({ err }, 'payment export failed');
            xlsx.stream.destroy(err);
          });
          return reply.send(xlsx.stream);
        }
        const csv = csvWriter(HEADERS);
        pipeline(Readable.from(rows()), csv).catch((err) => req.log.error({ err }, 'payment export failed'));
        return reply.send(csv);
      },
    );
  }
}
