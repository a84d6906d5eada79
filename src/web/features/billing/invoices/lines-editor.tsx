import { taxPercentText } from '@domain/billing/invoices';
import { formatMinutes } from '@domain/timesheets';
import { Button, IconButton, Input, Select, useFormat } from '@web/ui';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { newLine, type TEditLine, type TLineErrors } from './line-form';

export type TServiceOption = {
  id: string;
  name: string;
  code: string;
  taxCode: string;
  taxRateBp: number | null;
};

const NO_SERVICE = 'none';

function CellError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-0.5 text-xs text-danger">
      {message}
    </p>
  ) : null;
}

/**
 * The lines of a draft (or a credit note): description, service (filling the tax code and rate),
 * quantity, rate, discount, tax %, and the amount as the server will compute it. Lines move up and
 * down and go; what a line bills (time, a fee's period) stays with it.
 */
export function LinesEditor({
  lines,
  onChange,
  amounts,
  errors,
  services,
  defaultTaxRateBp,
  taxed,
  showDiscount = true,
  label = 'Invoice lines',
}: {
  lines: TEditLine[];
  onChange: (lines: TEditLine[]) => void;
  /** Each line's amount (after discount, before tax), by key. */
  amounts: Map<string, number>;
  errors: Map<string, TLineErrors>;
  /** The catalogue for the service picker; null hides it. */
  services: TServiceOption[] | null;
  defaultTaxRateBp: number;
  /** Whether the firm charges tax (a tax % per line). */
  taxed: boolean;
  showDiscount?: boolean;
  label?: string;
}) {
  const format = useFormat();
  const set = (key: string, patch: Partial<TEditLine>) =>
    onChange(lines.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const move = (index: number, by: number) => {
    const next = [...lines];
    const [line] = next.splice(index, 1);
    if (line) next.splice(index + by, 0, line);
    onChange(next);
  };
  const serviceOptions = [
    { value: NO_SERVICE, label: 'No service' },
    ...(services ?? []).map((s) => ({ value: s.id, label: s.name })),
  ];
  return (
    <div className="flex flex-col gap-2">
      <ol aria-label={label} className="flex flex-col gap-2">
        {lines.map((line, i) => {
          const n = i + 1;
          const e = errors.get(line.key) ?? {};
          const err = (field: keyof TLineErrors) => (e[field] ? `${line.key}-${field}-error` : undefined);
          const amount = amounts.get(line.key) ?? 0;
          const writeOff = line.kind !== 'custom' && line.standardValue ? amount - line.standardValue : 0;
          return (
            <li key={line.key} className="rounded-md border border-border bg-surface p-3">
              <div className="flex flex-wrap items-start gap-2">
                <span className="mt-2 w-5 shrink-0 text-right text-xs text-muted-fg tabular-nums">{n}</span>
                <div className="min-w-48 flex-1">
                  <Input
                    aria-label={`Line ${n} description`}
                    placeholder="What was done"
                    value={line.description}
                    aria-invalid={e.description ? true : undefined}
                    aria-describedby={err('description')}
                    onChange={(ev) => set(line.key, { description: ev.target.value })}
                  />
                  <CellError id={`${line.key}-description-error`} message={e.description} />
                </div>
                {services ? (
                  <Select
                    aria-label={`Line ${n} service`}
                    className="w-44"
                    value={line.serviceId ?? NO_SERVICE}
                    options={serviceOptions}
                    onValueChange={(v) => {
                      const s = services.find((x) => x.id === v);
                      set(
                        line.key,
                        s
                          ? {
                              serviceId: s.id,
                              taxCode: s.taxCode,
                              taxPercent: taxPercentText(s.taxRateBp ?? defaultTaxRateBp),
                              description: line.description || s.name,
                            }
                          : { serviceId: null },
                      );
                    }}
                  />
                ) : null}
                {taxed ? (
                  <Input
                    aria-label={`Line ${n} SAC or HSN code`}
                    placeholder="SAC/HSN"
                    className="w-28 font-mono"
                    value={line.taxCode}
                    onChange={(ev) => set(line.key, { taxCode: ev.target.value })}
                  />
                ) : null}
                <div className="ml-auto flex items-center gap-0.5">
                  <IconButton aria-label={`Move line ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    <ArrowUp aria-hidden />
                  </IconButton>
                  <IconButton
                    aria-label={`Move line ${n} down`}
                    disabled={i === lines.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    <ArrowDown aria-hidden />
                  </IconButton>
                  <IconButton
                    aria-label={`Remove line ${n}`}
                    onClick={() => onChange(lines.filter((l) => l.key !== line.key))}
                  >
                    <Trash2 aria-hidden />
                  </IconButton>
                </div>
              </div>
              <div className="mt-2 flex flex-wrap items-start gap-2 pl-7">
                <NumberCell
                  label={`Line ${n} quantity`}
                  caption="Qty"
                  className="w-20"
                  value={line.quantity}
                  error={e.quantity}
                  errorId={`${line.key}-quantity-error`}
                  onChange={(v) => set(line.key, { quantity: v })}
                />
                <NumberCell
                  label={`Line ${n} rate`}
                  caption="Rate"
                  className="w-32"
                  value={line.rate}
                  error={e.rate}
                  errorId={`${line.key}-rate-error`}
                  onChange={(v) => set(line.key, { rate: v })}
                />
                {showDiscount ? (
                  <NumberCell
                    label={`Line ${n} discount`}
                    caption="Discount"
                    className="w-28"
                    value={line.discount}
                    error={e.discount}
                    errorId={`${line.key}-discount-error`}
                    onChange={(v) => set(line.key, { discount: v })}
                  />
                ) : null}
                {taxed ? (
                  <NumberCell
                    label={`Line ${n} tax percent`}
                    caption="Tax %"
                    className="w-20"
                    value={line.taxPercent}
                    error={e.taxPercent}
                    errorId={`${line.key}-taxPercent-error`}
                    onChange={(v) => set(line.key, { taxPercent: v })}
                  />
                ) : null}
                <div className="ml-auto text-right">
                  <span className="block text-xs text-muted-fg">Amount</span>
                  <output
                    aria-label={`Line ${n} amount`}
                    className="block pt-1.5 text-sm font-medium tabular-nums"
                  >
                    {format.moneyMinor(amount)}
                  </output>
                </div>
              </div>
              {line.time || line.periodStart || writeOff ? (
                <p className="mt-1.5 pl-7 text-xs text-muted-fg">
                  {line.time
                    ? `${line.time.entries} ${line.time.entries === 1 ? 'entry' : 'entries'} · ${formatMinutes(line.time.minutes)} h`
                    : null}
                  {line.periodStart ? `Fee for the period from ${format.date(line.periodStart)}` : null}
                  {line.standardValue ? ` · standard value ${format.moneyMinor(line.standardValue)}` : null}
                  {writeOff ? (
                    <span className={writeOff < 0 ? 'text-danger' : 'text-fg'}>
                      {` · written ${writeOff < 0 ? 'down' : 'up'} ${format.moneyMinor(Math.abs(writeOff))}`}
                    </span>
                  ) : null}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...lines, newLine(defaultTaxRateBp)])}>
          <Plus aria-hidden /> Add line
        </Button>
      </div>
    </div>
  );
}

function NumberCell({
  label,
  caption,
  className,
  value,
  error,
  errorId,
  onChange,
}: {
  label: string;
  caption: string;
  className: string;
  value: string;
  error?: string;
  errorId: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className={className}>
      <span aria-hidden="true" className="block text-xs text-muted-fg">
        {caption}
      </span>
      <Input
        aria-label={label}
        inputMode="decimal"
        className="text-right tabular-nums"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(ev) => onChange(ev.target.value)}
      />
      <CellError id={errorId} message={error} />
    </div>
  );
}
