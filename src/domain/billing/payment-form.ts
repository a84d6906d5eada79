import { z } from 'zod';
import { PAYMENT_METHODS } from './constants';
import {
  parseAmount,
  type TPaymentCreateInput,
  ZCreditApply,
  ZPaymentCreate,
  ZRefundCreate,
} from './payments';

// The payment dialogs' forms: what a person types (amounts as text in the currency's units), read
// into minor units and then checked by the very schema the procedure checks (ZPaymentCreate,
// ZCreditApply, ZRefundCreate), so the form and the server refuse the same things with the same
// words. Field names are the procedure's, so the server's refusals land on the field they name.

/** One open invoice in the form: its balance (the most it may take) and what the person allocates. */
const ZAllocationRow = z.object({ invoiceId: z.string(), balance: z.number(), amount: z.string() });
export type TAllocationRow = z.input<typeof ZAllocationRow>;

export const OVER_BALANCE = "More than the invoice's balance";

type TCtx = z.RefinementCtx;

function reader(digits: number, ctx: TCtx) {
  return (text: string, path: (string | number)[]) => {
    const parsed = parseAmount(text, digits);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error, path });
      return 0;
    }
    return parsed.amount;
  };
}

/** The rows a person filled, as allocations: each within its invoice's balance, empty rows left out. */
function allocationsOf(rows: TAllocationRow[], money: ReturnType<typeof reader>, ctx: TCtx) {
  return rows
    .map((row, i) => {
      const amount = money(row.amount, ['allocations', i, 'amount']);
      if (amount > row.balance)
        ctx.addIssue({ code: 'custom', message: OVER_BALANCE, path: ['allocations', i, 'amount'] });
      return { invoiceId: row.invoiceId, amount };
    })
    .filter((a) => a.amount > 0);
}

const zMethod = z.enum(PAYMENT_METHODS);

const ZPaymentFormFields = z.object({
  clientId: z.string(),
  receivedOn: z.string(),
  method: zMethod,
  reference: z.string(),
  amount: z.string(),
  tdsAmount: z.string(),
  tdsSection: z.string(),
  tdsCertificateReceived: z.boolean(),
  bankCharges: z.string(),
  notes: z.string(),
  allocations: z.array(ZAllocationRow),
});
export type TPaymentFormInput = z.input<typeof ZPaymentFormFields>;

/** Record payment: typed amounts in the currency's `digits`, then ZPaymentCreate. */
export function paymentFormSchema(digits: number) {
  return ZPaymentFormFields.transform((v, ctx): TPaymentCreateInput => {
    const money = reader(digits, ctx);
    return {
      ...v,
      amount: money(v.amount, ['amount']),
      tdsAmount: money(v.tdsAmount, ['tdsAmount']),
      tdsSection: v.tdsSection.trim() || null,
      bankCharges: money(v.bankCharges, ['bankCharges']),
      allocations: allocationsOf(v.allocations, money, ctx),
    };
  }).pipe(ZPaymentCreate);
}

/** Apply credit: allocations from the client's `credit`, never more than it, then ZCreditApply. */
export function creditApplyFormSchema(digits: number, credit: number) {
  return z
    .object({ clientId: z.string(), appliedOn: z.string(), allocations: z.array(ZAllocationRow) })
    .transform((v, ctx): z.input<typeof ZCreditApply> => {
      const allocations = allocationsOf(v.allocations, reader(digits, ctx), ctx);
      if (allocations.reduce((s, a) => s + a.amount, 0) > credit)
        ctx.addIssue({ code: 'custom', message: 'Apply no more than the credit', path: ['allocations'] });
      return { ...v, allocations };
    })
    .pipe(ZCreditApply);
}
export type TCreditApplyFormInput = z.input<ReturnType<typeof creditApplyFormSchema>>;

/** Refund credit: the amount typed, never more than the client's `credit`, then ZRefundCreate. */
export function refundFormSchema(digits: number, credit: number) {
  return z
    .object({
      clientId: z.string(),
      paidOn: z.string(),
      method: zMethod,
      reference: z.string(),
      amount: z.string(),
      notes: z.string(),
    })
    .transform((v, ctx): z.input<typeof ZRefundCreate> => {
      const amount = reader(digits, ctx)(v.amount, ['amount']);
      if (amount > credit)
        ctx.addIssue({ code: 'custom', message: 'Refund no more than the credit', path: ['amount'] });
      return { ...v, amount };
    })
    .pipe(ZRefundCreate);
}
export type TRefundFormInput = z.input<ReturnType<typeof refundFormSchema>>;
