import type { TTaxRow } from '@domain/billing/totals';
import { cn, useFormat } from '@web/ui';

/** Subtotal, each tax, the round-off where the firm rounds, the total; and for an issued one what was paid. */
export function TotalsTable({
  totals,
  paid,
  className,
}: {
  totals: { subtotal: number; taxes: TTaxRow[]; roundOff: number; total: number };
  paid?: { amountPaid: number; balance: number };
  className?: string;
}) {
  const format = useFormat();
  const row = (label: string, value: number, strong = false) => (
    <div key={label} className={cn('flex justify-between gap-8', strong && 'font-semibold text-fg')}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{format.moneyMinor(value)}</dd>
    </div>
  );
  return (
    <dl
      aria-label="Totals"
      className={cn('flex w-full max-w-xs flex-col gap-1 text-sm text-muted-fg', className)}
    >
      {row('Subtotal', totals.subtotal)}
      {totals.taxes.map((t) => row(t.label, t.amount))}
      {totals.roundOff ? row('Round-off', totals.roundOff) : null}
      <div className="my-1 border-t border-border" />
      {row('Total', totals.total, true)}
      {paid ? row('Amount paid', paid.amountPaid) : null}
      {paid ? row('Balance due', paid.balance, true) : null}
    </dl>
  );
}
