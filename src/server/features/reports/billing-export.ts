import type { z } from 'zod';
import {
  BILLING_REPORT_DIMENSION_LABELS,
  type TBillingFigure,
  type ZBillingSummary,
} from '../../../domain/reports';
import { requirePermission, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { billingSummary, type TBillingRow } from './billing-summary';

const DETAIL_HEADER = { client: 'Code', service: 'Code', project: 'Client' } as const;

/** The figures' columns: WIP with its three parts, realization with what it is made of. */
const COLUMNS: Record<TBillingFigure, { header: string; value: (r: TBillingRow) => number | null }[]> = {
  billed: [{ header: 'Billed', value: (r) => r.billed }],
  collected: [{ header: 'Collected', value: (r) => r.collected }],
  outstanding: [{ header: 'Outstanding', value: (r) => r.outstanding }],
  overdue: [{ header: 'Overdue', value: (r) => r.overdue }],
  wip: [
    { header: 'WIP', value: (r) => r.wip },
    { header: 'WIP time', value: (r) => r.wipTime },
    { header: 'WIP fees', value: (r) => r.wipFees },
    { header: 'WIP disbursements', value: (r) => r.wipDisbursements },
  ],
  standard: [
    { header: 'Standard value', value: (r) => r.standard },
    { header: 'Billed against standard', value: (r) => r.measured },
  ],
  realization: [{ header: 'Realization %', value: (r) => r.realization }],
};

const NONE = {
  client: '',
  service: 'No service',
  partner: 'No partner',
  member: '',
  project: 'No project',
  month: '',
};

/**
 * The billing summary's rows for the export: every row the filters cover, in the screen's sort and
 * dimension, money as plain decimals of the currency (150.00), the month as YYYY-MM.
 */
export async function billingTable(db: TDb, scope: TScope, input: z.output<typeof ZBillingSummary>) {
  requirePermission(scope, 'billing.view');
  const r = await billingSummary(db, scope, input);
  const detail = input.by in DETAIL_HEADER ? DETAIL_HEADER[input.by as keyof typeof DETAIL_HEADER] : null;
  const columns = r.figures.flatMap((f) => COLUMNS[f]);
  const amount = (v: number) => (v / 10 ** r.currencyDigits).toFixed(r.currencyDigits);
  return {
    title: 'Billing summary',
    headers: [
      BILLING_REPORT_DIMENSION_LABELS[input.by],
      ...(detail ? [detail] : []),
      ...columns.map((c) => c.header),
    ],
    rows: r.rows.map((x) => [
      x.id === null ? NONE[input.by] : input.by === 'month' ? (x.id ?? '') : x.name,
      ...(detail ? [x.detail ?? ''] : []),
      ...columns.map((c) => {
        const v = c.value(x);
        if (v === null) return '';
        return c.header === 'Realization %' ? String(v) : amount(v);
      }),
    ]),
    count: r.rows.length,
  };
}
