import type { TPaymentMethod } from '../../src/domain/billing/constants';
import { addDays } from '../../src/domain/days';
import { hashOf } from './calendar';
import { billedMonthly, type TDemoEngagement } from './catalogue';
import type { TDemoClient } from './clients';

// Who pays how. Most clients pay in full within the fortnight the terms give (a few a week or two
// late), businesses by bank transfer (a cheque now and then) with TDS deducted under section 194J,
// people by UPI. The firm's story needs a few others, each a client billed every month: one pays a
// retainer in advance that its invoices draw on, one stopped paying five months ago (the 90+ days in
// the aging), two pay a month or two late, one pays each invoice in two halves a month apart; one
// has a fee corrected by a credit note, one is billed twice for a certificate (the second voided),
// and one bill of time is written down: the first advised client's billed for time, else the first
// run's first bill with time (bench/demo/billing.ts billWip).

export type TBillingCast = {
  retainer: TDemoClient;
  stopped: TDemoClient;
  slow: TDemoClient[];
  halves: TDemoClient;
  corrected: TDemoClient;
  duplicated: TDemoClient;
  /** Clients advised by the hour: the first of them billed for time has that bill written down. */
  advised: TDemoClient[];
};

const MONTHLY = new Set(['GST3B', 'BOOKS', 'PAYROLL']);
const PERIODIC = new Set([...MONTHLY, 'TDS']);
/** Clients that deduct tax at source from professional fees (194J). */
const DEDUCTORS = new Set(['company', 'llp', 'partnership']);
export const TDS_SECTION = '194J';
/** 194J's rate on fees for professional services. */
const TDS_RATE = 0.1;
/** The GST in every fee's total (18%): TDS is deducted on the fee before GST. */
const WITH_GST = 1.18;
/** A client the firm stopped hearing from: unpaid since this many days before today. */
export const STOPPED_DAYS = 150;

export function billingCast(
  clients: TDemoClient[],
  engagements: TDemoEngagement[],
  advised: TDemoClient[],
): TBillingCast {
  const monthly = new Set(engagements.filter((e) => MONTHLY.has(e.code)).map((e) => e.clientId));
  const periodic = new Set(engagements.filter((e) => PERIODIC.has(e.code)).map((e) => e.clientId));
  const engaged = new Set(engagements.map((e) => e.clientId));
  const advisedIds = new Set(advised.map((c) => c.id));
  // Clients billed every month first (their aging fills every bucket), then those billed each
  // quarter, then the others engaged.
  const rank = (c: TDemoClient) =>
    monthly.has(c.id) && billedMonthly(c) ? 0 : periodic.has(c.id) ? 1 : engaged.has(c.id) ? 2 : 3;
  const candidates = clients.filter((c) => !advisedIds.has(c.id)).sort((a, b) => rank(a) - rank(b));
  // Those whose story needs an invoice every month come first.
  const [stopped, halves, retainer, slow1, slow2, corrected, duplicated] = candidates;
  if (!retainer || !stopped || !slow1 || !slow2 || !halves || !corrected || !duplicated || !advised.length) {
    throw new Error('the demo firm has too few clients for its billing story');
  }
  return { retainer, stopped, slow: [slow1, slow2], halves, corrected, duplicated, advised };
}

export type TPayment = { day: string; share: 'all' | 'half' };

/** When an invoice issued on `issued` is paid, and how much of it: nothing yet past `today`. */
export function paymentsOf(
  cast: TBillingCast,
  client: TDemoClient,
  invoiceId: string,
  issued: string,
  today: string,
): TPayment[] {
  const h = hashOf(invoiceId);
  if (client.id === cast.stopped.id && issued >= addDays(today, -STOPPED_DAYS)) return [];
  if (cast.slow.some((c) => c.id === client.id))
    return [{ day: addDays(issued, 45 + (h % 50)), share: 'all' }];
  if (client.id === cast.halves.id) {
    return [
      { day: addDays(issued, 10), share: 'half' },
      { day: addDays(issued, 45), share: 'all' },
    ];
  }
  const late = h % 5 === 0;
  return [{ day: addDays(issued, late ? 16 + (h % 13) : 3 + (h % 12)), share: 'all' }];
}

export function methodOf(client: TDemoClient, seed: string): TPaymentMethod {
  const h = hashOf(seed);
  if (DEDUCTORS.has(client.type)) return h % 6 === 0 ? 'cheque' : 'bank_transfer';
  if (client.type === 'trust') return 'cheque';
  if (client.type === 'proprietor') return h % 2 ? 'upi' : 'cheque';
  return 'upi';
}

export function referenceOf(method: TPaymentMethod, seed: string) {
  const digits = (n: number) =>
    String(hashOf(`${seed}:${n}`))
      .padStart(10, '0')
      .slice(0, n);
  if (method === 'bank_transfer') return `NEFT UTR HDFCN${digits(10)}`;
  if (method === 'upi') return `UPI ${digits(6)}${digits(6)}`;
  if (method === 'cheque') return `Cheque ${digits(6)}`;
  return '';
}

/** The tax a deductor keeps back from `settled` (in paise), in whole rupees; none for others. */
export function tdsOn(client: TDemoClient, settled: number) {
  if (!DEDUCTORS.has(client.type)) return 0;
  return Math.round(((settled / WITH_GST) * TDS_RATE) / 100) * 100;
}

/**
 * The quarter whose TDS certificates (Form 16A) come in on a day: a fortnight after each quarter's
 * TDS return, the admin marks them received around the 20th of February, May, August and November.
 */
export function certificateQuarter(day: string): { from: string; to: string } | null {
  const month = Number(day.slice(5, 7));
  if (![2, 5, 8, 11].includes(month) || Number(day.slice(8, 10)) < 20) return null;
  const year = Number(day.slice(0, 4));
  // The quarter that ended two months before: Feb → Oct-Dec, May → Jan-Mar, Aug → Apr-Jun, Nov → Jul-Sep.
  const endMonth = month - 2 <= 0 ? month + 10 : month - 2;
  const endYear = month - 2 <= 0 ? year - 1 : year;
  const startMonth = endMonth - 2;
  const pad = (n: number) => String(n).padStart(2, '0');
  const lastDay = new Date(Date.UTC(endYear, endMonth, 0)).getUTCDate();
  return { from: `${endYear}-${pad(startMonth)}-01`, to: `${endYear}-${pad(endMonth)}-${pad(lastDay)}` };
}
