import { PAYMENT_METHOD_LABELS, type TPaymentMethod } from '@domain/billing/constants';
import { statementPdfPath } from '@domain/billing/payment-list';
import { STATEMENT_ENTRY_LABELS, type TStatementEntryKind } from '@domain/billing/payments';
import { defaultStatementPeriod } from '@domain/billing/statement-period';
import { todayIn } from '@domain/days';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  DatePicker,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { saveFile } from '../../documents/file-transfer';
import { useProfile } from '../../shell/use-profile';

/** Words beside an entry's reference: the method of a payment, a TDS section, a credit note's invoice, a reversal's reason. */
function detailOf(kind: TStatementEntryKind, detail: string) {
  if (!detail) return '';
  switch (kind) {
    case 'payment':
    case 'refund':
      return PAYMENT_METHOD_LABELS[detail as TPaymentMethod] ?? detail;
    case 'tds':
      return `Section ${detail}`;
    case 'credit_note':
      return `Against ${detail}`;
    default:
      return detail;
  }
}

/**
 * A client's statement for a period (this fiscal year so far until another is picked): the balance
 * brought forward, every invoice, payment and credit in date order with the running balance, and the
 * closing balance; the same statement as a PDF.
 */
export function StatementCard({ clientId }: { clientId: string }) {
  const format = useFormat();
  const { org } = useProfile();
  const [period, setPeriod] = useState(() =>
    defaultStatementPeriod(todayIn(format.timeZone), org.fiscalYearStartMonth),
  );
  const [downloading, setDownloading] = useState(false);
  const ids = useId();
  const valid = period.from <= period.to;
  const statement = useQuery({
    ...trpc.billing.statements.get.queryOptions({ clientId, ...period }),
    enabled: valid,
  });
  const s = statement.data;
  const money = format.moneyMinor;
  const download = async () => {
    setDownloading(true);
    try {
      await saveFile(
        statementPdfPath(clientId, period.from, period.to),
        `statement-${period.from}-${period.to}.pdf`,
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Network Error');
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle>Statement</CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          {/* Visible labels, not aria-label: the button shows the date, which its name must hold. */}
          <label htmlFor={`${ids}-from`} className="text-sm text-muted-fg">
            From
          </label>
          <DatePicker
            id={`${ids}-from`}
            className="w-40"
            value={period.from}
            max={period.to}
            clearable={false}
            onChange={(v) => v && setPeriod((p) => ({ ...p, from: v }))}
          />
          <label htmlFor={`${ids}-to`} className="text-sm text-muted-fg">
            to
          </label>
          <DatePicker
            id={`${ids}-to`}
            className="w-40"
            value={period.to}
            min={period.from}
            clearable={false}
            onChange={(v) => v && setPeriod((p) => ({ ...p, to: v }))}
          />
          <Button variant="outline" onClick={download} loading={downloading} disabled={!valid}>
            <Download aria-hidden /> Download PDF
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {statement.error ? (
          <p className="text-sm text-danger">The statement could not be made: {statement.error.message}</p>
        ) : !s ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <>
            <dl aria-label="Statement totals" className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              {[
                ['Opening balance', s.openingBalance],
                ['Invoiced and refunded', s.totals.debit],
                ['Paid and credited', s.totals.credit],
                ['Closing balance', s.closingBalance],
              ].map(([label, value]) => (
                <div key={label}>
                  <dt className="text-xs text-muted-fg">{label}</dt>
                  <dd className="font-semibold tabular-nums">{money(value as number)}</dd>
                </div>
              ))}
            </dl>
            <div className="overflow-x-auto rounded-md border border-border">
              <table aria-label="Statement" className="w-full text-sm">
                <thead className="bg-muted/50 text-xs text-muted-fg">
                  <tr>
                    {['Date', 'Entry', 'Reference', 'Detail'].map((h) => (
                      <th key={h} scope="col" className="px-3 py-1.5 text-left font-medium whitespace-nowrap">
                        {h}
                      </th>
                    ))}
                    {['Debit', 'Credit', 'Balance'].map((h) => (
                      <th key={h} scope="col" className="px-3 py-1.5 text-right font-medium">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  <tr className="border-t border-border">
                    <td className="px-3 py-1.5 whitespace-nowrap">{format.date(s.from)}</td>
                    <td className="px-3 py-1.5" colSpan={5}>
                      Balance brought forward
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{money(s.openingBalance)}</td>
                  </tr>
                  {s.entries.map((e) => (
                    <tr key={`${e.id}-${e.kind}`} className="border-t border-border">
                      <td className="px-3 py-1.5 whitespace-nowrap">{format.date(e.date)}</td>
                      <td className="px-3 py-1.5 whitespace-nowrap">{STATEMENT_ENTRY_LABELS[e.kind]}</td>
                      <td className="px-3 py-1.5 font-mono text-xs whitespace-nowrap">{e.reference}</td>
                      <td className="px-3 py-1.5 text-muted-fg">{detailOf(e.kind, e.detail)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{e.debit ? money(e.debit) : ''}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">
                        {e.credit ? money(e.credit) : ''}
                      </td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{money(e.balance)}</td>
                    </tr>
                  ))}
                  <tr className="border-t-2 border-border bg-muted/50 font-medium">
                    <td className="px-3 py-1.5 whitespace-nowrap">{format.date(s.to)}</td>
                    <td className="px-3 py-1.5" colSpan={5}>
                      Closing balance
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{money(s.closingBalance)}</td>
                  </tr>
                </tbody>
              </table>
            </div>
            <p className="text-xs text-muted-fg">
              A balance below zero is credit the client holds with the firm.
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
