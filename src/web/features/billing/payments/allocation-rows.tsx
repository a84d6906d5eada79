import { allocationSummary } from '@domain/billing/allocation';
import { parseAmount } from '@domain/billing/payments';
import type { inferRouterOutputs } from '@trpc/server';
import { Button, cn, Input, useFormat } from '@web/ui';
import type { InputHTMLAttributes } from 'react';
import type { AppRouter } from '../../../lib/trpc';
import { InvoiceStatusBadge } from '../invoices/invoice-status-badge';

export type TClientAccount = inferRouterOutputs<AppRouter>['billing']['payments']['clientAccount'];
export type TOpenInvoice = TClientAccount['openInvoices'][number];

/** What typed text comes to in minor units; a mistyped amount counts as nothing until it is fixed. */
export function typedMinor(text: string | undefined, digits: number): number {
  const parsed = parseAmount(text ?? '', digits);
  return 'amount' in parsed ? parsed.amount : 0;
}

/**
 * The client's open invoices, oldest due first, each with what this payment (or credit) puts on it:
 * filled in oldest first, editable per invoice, never beyond its balance. Under them, what is
 * allocated and what is left: a payment's rest becomes the client's credit.
 */
export function AllocationRows({
  invoices,
  amounts,
  available,
  inputProps,
  rowError,
  error,
  onRefill,
  leftLabel,
}: {
  invoices: TOpenInvoice[];
  /** Each row's typed amount, as text. */
  amounts: string[];
  /** What there is to allocate, in minor units. */
  available: number;
  inputProps: (index: number) => InputHTMLAttributes<HTMLInputElement>;
  rowError: (index: number) => string | undefined;
  error?: string;
  onRefill: () => void;
  /** How the rest is named: "becomes the client's credit" for a payment, "of credit left" for credit. */
  leftLabel: string;
}) {
  const format = useFormat();
  const summary = allocationSummary(
    available,
    amounts.map((a) => typedMinor(a, format.currencyDigits)),
  );
  if (invoices.length === 0) {
    return (
      <p className="rounded-md bg-muted/50 px-3 py-2 text-sm text-muted-fg">
        No open invoices: all of it {leftLabel}.
      </p>
    );
  }
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 flex w-full items-center justify-between gap-2 text-sm font-medium text-fg">
        Allocate to open invoices
        <Button type="button" variant="ghost" size="sm" onClick={onRefill}>
          Fill oldest first
        </Button>
      </legend>
      <div className="overflow-x-auto rounded-md border border-border">
        <table className="w-full text-sm" aria-label="Open invoices">
          <thead className="bg-muted/50 text-xs text-muted-fg">
            <tr>
              <th scope="col" className="px-3 py-1.5 text-left font-medium">
                Invoice
              </th>
              <th scope="col" className="px-3 py-1.5 text-left font-medium">
                Due
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Balance
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Allocate
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((invoice, i) => {
              const message = rowError(i);
              return (
                <tr key={invoice.id} className="border-t border-border align-top">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <span className="font-mono text-xs">{invoice.number}</span>
                    {invoice.displayStatus === 'overdue' ? (
                      <span className="ml-1.5">
                        <InvoiceStatusBadge status="overdue" />
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{format.date(invoice.dueDate)}</td>
                  <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                    {format.moneyMinor(invoice.balance)}
                  </td>
                  <td className="px-3 py-1 text-right">
                    <Input
                      inputMode="decimal"
                      placeholder="0.00"
                      className="ml-auto w-32 text-right tabular-nums"
                      aria-label={`Allocate to ${invoice.number}`}
                      aria-invalid={message ? true : undefined}
                      {...inputProps(i)}
                    />
                    {message ? <p className="mt-1 text-xs text-danger">{message}</p> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p aria-live="polite" className={cn('text-sm', summary.over ? 'text-danger' : 'text-muted-fg')}>
        Allocated <span className="tabular-nums">{format.moneyMinor(summary.allocated)}</span> of{' '}
        <span className="tabular-nums">{format.moneyMinor(available)}</span>
        {summary.over ? (
          ': more than there is to allocate.'
        ) : summary.left > 0 ? (
          <>
            ; <span className="font-medium text-fg tabular-nums">{format.moneyMinor(summary.left)}</span>{' '}
            {leftLabel}.
          </>
        ) : (
          '.'
        )}
      </p>
      {error ? <p className="text-sm text-danger">{error}</p> : null}
    </fieldset>
  );
}
