import type { TLineValues } from '@domain/billing/schemas';
import { invoiceTotals, type TInvoiceTotals, type TTaxContext } from '@domain/billing/totals';
import { useMemo } from 'react';
import { parseLine, type TEditLine, type TLineErrors } from './line-form';

/**
 * The lines as the server will take them, with the totals it will compute (the same domain
 * arithmetic): each line's amount by key, the taxes, round-off and total. `showAll` also reports
 * what is missing rather than mistyped (an empty description), once a save was tried.
 */
export function useLiveTotals(lines: TEditLine[], context: TTaxContext, digits: number, showAll: boolean) {
  return useMemo(() => {
    const parsed = lines.map((l) => ({ key: l.key, ...parseLine(l, digits) }));
    const totals: TInvoiceTotals = invoiceTotals(
      parsed.map((p) => p.value),
      context,
    );
    const amounts = new Map(parsed.map((p, i) => [p.key, totals.lines[i]?.amount ?? 0]));
    const errors = new Map<string, TLineErrors>();
    let invalid = false;
    for (const p of parsed) {
      const shown: TLineErrors = { ...p.errors };
      if (Object.keys(p.errors).length) invalid = true;
      if (!showAll) delete shown.description;
      errors.set(p.key, shown);
    }
    const values: TLineValues[] = parsed.map((p) => p.value);
    return { values, totals, amounts, errors, invalid };
  }, [lines, context, digits, showAll]);
}
