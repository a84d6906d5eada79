import { gstStateLabel } from '@domain/billing/gst-states';
import { quantityText, taxPercentText } from '@domain/billing/invoices';
import { amountInWords } from '@domain/billing/words';
import { formatMinutes } from '@domain/timesheets';
import { Card, CardContent, useFormat } from '@web/ui';
import { Ban } from 'lucide-react';
import type { TInvoiceDetail } from './invoice-page';
import { TotalsTable } from './invoice-totals';

/** An issued invoice or credit note as the client reads it: who it is for, its lines, taxes and totals. */
export function InvoiceDocument({ detail }: { detail: TInvoiceDetail }) {
  const format = useFormat();
  const { invoice, client } = detail;
  const billTo = invoice.billTo ?? { name: client.name, code: client.code, addressLines: [], taxIds: [] };
  const taxed = invoice.taxRegime !== 'none';
  const meta: [string, string][] = [
    ['Number', invoice.number ?? 'Draft'],
    ['Issue date', invoice.issueDate ? format.date(invoice.issueDate) : '—'],
  ];
  if (invoice.kind === 'invoice')
    meta.push(['Due date', invoice.dueDate ? format.date(invoice.dueDate) : '—']);
  if (invoice.taxRegime === 'gst')
    meta.push(['Place of supply', gstStateLabel(invoice.placeOfSupply) || "The firm's state"]);
  if (invoice.zeroRated) meta.push(['Supply', 'Zero-rated']);
  return (
    <Card>
      <CardContent className="flex flex-col gap-6 pt-5">
        {invoice.status === 'void' ? (
          <p className="flex items-center gap-2 rounded-md border border-border bg-muted px-3 py-2 text-sm">
            <Ban aria-hidden className="size-4 text-danger" />
            Void{invoice.voidReason ? `: ${invoice.voidReason}` : ''}. The number stays, and nothing is owed
            on it.
          </p>
        ) : null}
        <div className="flex flex-wrap justify-between gap-6">
          <div className="min-w-0">
            <h2 className="text-xs font-medium tracking-wide text-muted-fg uppercase">Bill to</h2>
            <p className="mt-1 font-semibold break-words">{billTo.name}</p>
            {billTo.addressLines.map((l) => (
              <p key={l} className="text-sm text-muted-fg">
                {l}
              </p>
            ))}
            {billTo.taxIds.map((t) => (
              <p key={`${t.kind}:${t.value}`} className="text-sm">
                {t.kind} <span className="font-mono">{t.value}</span>
              </p>
            ))}
          </div>
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
            {meta.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-muted-fg">{k}</dt>
                <dd className={k === 'Number' ? 'font-mono' : undefined}>{v}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">Lines</caption>
            <thead>
              <tr className="border-b border-border text-left text-xs text-muted-fg">
                <th scope="col" className="py-2 pr-2 font-medium">
                  #
                </th>
                <th scope="col" className="py-2 pr-2 font-medium">
                  Description
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-medium">
                  Qty
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-medium">
                  Rate
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-medium">
                  Discount
                </th>
                {taxed ? (
                  <th scope="col" className="py-2 pr-2 text-right font-medium">
                    Tax
                  </th>
                ) : null}
                <th scope="col" className="py-2 text-right font-medium">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {detail.lines.map((l, i) => {
                const writeOff = l.kind !== 'custom' && l.standardValue ? l.amount - l.standardValue : 0;
                return (
                  <tr key={l.id} className="border-b border-border align-top">
                    <td className="py-2 pr-2 text-muted-fg tabular-nums">{i + 1}</td>
                    <td className="py-2 pr-2">
                      <span className="break-words">{l.description}</span>
                      {l.taxCode ? (
                        <span className="block text-xs text-muted-fg">
                          SAC/HSN <span className="font-mono">{l.taxCode}</span>
                        </span>
                      ) : null}
                      {l.time ? (
                        <span className="block text-xs text-muted-fg">
                          {l.time.entries} {l.time.entries === 1 ? 'entry' : 'entries'} ·{' '}
                          {formatMinutes(l.time.minutes)} h
                          {writeOff
                            ? ` · written ${writeOff < 0 ? 'down' : 'up'} ${format.moneyMinor(Math.abs(writeOff))} against ${format.moneyMinor(l.standardValue)}`
                            : ''}
                        </span>
                      ) : null}
                    </td>
                    <td className="py-2 pr-2 text-right tabular-nums">{quantityText(l.quantityMilli)}</td>
                    <td className="py-2 pr-2 text-right tabular-nums">{format.moneyMinor(l.rate)}</td>
                    <td className="py-2 pr-2 text-right tabular-nums">
                      {l.discount ? format.moneyMinor(l.discount) : '—'}
                    </td>
                    {taxed ? (
                      <td className="py-2 pr-2 text-right tabular-nums">{taxPercentText(l.taxRateBp)}%</td>
                    ) : null}
                    <td className="py-2 text-right tabular-nums">{format.moneyMinor(l.amount)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <div className="flex flex-wrap items-start justify-between gap-6">
          <div className="flex min-w-0 max-w-md flex-col gap-3 text-sm">
            <p>
              <span className="text-xs font-medium text-muted-fg">Amount in words </span>
              <span className="block">{amountInWords(invoice.total, invoice.currency, format.locale)}</span>
            </p>
            {invoice.notes ? (
              <div>
                <h3 className="text-xs font-medium text-muted-fg">
                  {invoice.kind === 'credit_note' ? 'Reason' : 'Notes'}
                </h3>
                <p className="whitespace-pre-line break-words">{invoice.notes}</p>
              </div>
            ) : null}
            {invoice.terms ? (
              <div>
                <h3 className="text-xs font-medium text-muted-fg">Terms</h3>
                <p className="whitespace-pre-line break-words">{invoice.terms}</p>
              </div>
            ) : null}
          </div>
          <TotalsTable
            totals={{
              subtotal: invoice.subtotal,
              taxes: detail.taxes,
              roundOff: invoice.roundOff,
              total: invoice.total,
            }}
            paid={
              invoice.kind === 'invoice' && invoice.status !== 'draft' && invoice.status !== 'void'
                ? { amountPaid: invoice.amountPaid, balance: invoice.balance }
                : undefined
            }
          />
        </div>
      </CardContent>
    </Card>
  );
}
