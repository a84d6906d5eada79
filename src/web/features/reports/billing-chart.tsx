import { useFormat } from '@web/ui';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_COLOURS } from './status-chart';

type TMonth = { month: string; billed: number; collected: number };

/**
 * Billed and collected per month of the period, side by side. The picture is hidden from screen
 * readers, which read its figures from the table beside it instead (the page's own table may be by
 * client or service).
 */
export function BillingMonthsChart({ months }: { months: TMonth[] }) {
  const format = useFormat();
  if (!months.length) return null;
  const unit = 10 ** format.currencyDigits;
  const rows = months.map((m) => ({
    name: format.date(`${m.month}-01`, 'month'),
    billed: m.billed / unit,
    collected: m.collected / unit,
    minor: m,
  }));
  const money = (v: number) => format.moneyMinor(Math.round(v * unit));
  const compact = (v: number) => format.number(v, { notation: 'compact', maximumFractionDigits: 1 });
  return (
    <figure className="rounded-lg border border-border bg-surface p-3">
      <figcaption className="mb-2 text-sm font-medium text-fg">Billed and collected by month</figcaption>
      <div style={{ height: 240 }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ left: 8, right: 8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="name"
              fontSize={11}
              tickFormatter={(v: string) => v.split(' ')[0]?.slice(0, 3) ?? v}
            />
            <YAxis fontSize={11} width={48} tickFormatter={compact} />
            <Tooltip formatter={(v) => money(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <Bar dataKey="billed" name="Billed" fill={CHART_COLOURS.inProgress} isAnimationActive={false} />
            <Bar
              dataKey="collected"
              name="Collected"
              fill={CHART_COLOURS.completed}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>Billed and collected by month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Billed</th>
            <th scope="col">Collected</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.minor.month}>
              <th scope="row">{r.name}</th>
              <td>{format.moneyMinor(r.minor.billed)}</td>
              <td>{format.moneyMinor(r.minor.collected)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
