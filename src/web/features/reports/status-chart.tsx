import { STATUS_DISPLAY } from '@domain/status';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

// Charts are for looking; every figure in one is also in the table beside it (the page's table),
// which the figure names for screen readers.

const COLOURS = {
  scheduled: 'var(--color-muted-fg, #6b7280)',
  inProgress: 'var(--color-primary, #2563eb)',
  inReview: '#ca8a04',
  completed: '#16a34a',
  overdue: '#dc2626',
};

export type TStatusBar = {
  name: string;
  scheduled: number;
  inProgress: number;
  inReview: number;
  completed: number;
};

const STATUS_SERIES = [
  { key: 'scheduled', label: STATUS_DISPLAY.SCHEDULED.label, colour: COLOURS.scheduled },
  { key: 'inProgress', label: STATUS_DISPLAY.IN_PROGRESS.label, colour: COLOURS.inProgress },
  { key: 'inReview', label: STATUS_DISPLAY.IN_REVIEW.label, colour: COLOURS.inReview },
  { key: 'completed', label: STATUS_DISPLAY.COMPLETED.label, colour: COLOURS.completed },
];

/** Stacked bars of tasks by status, one bar per row (a client, a service): horizontal, so it fits 375 px. */
export function StatusBars({ rows, tableId, label }: { rows: TStatusBar[]; tableId: string; label: string }) {
  return <SeriesBars rows={rows} series={STATUS_SERIES} tableId={tableId} label={label} stacked />;
}

/**
 * Bars of named series, one group per row (expected / created / completed per service), or one
 * stacked bar per row (`stacked`).
 */
export function SeriesBars({
  rows,
  series,
  tableId,
  label,
  stacked = false,
}: {
  rows: ReadonlyArray<Record<string, string | number>>;
  series: { key: string; label: string; colour: string }[];
  tableId: string;
  label: string;
  stacked?: boolean;
}) {
  if (!rows.length) return null;
  return (
    <figure aria-describedby={tableId} className="rounded-lg border border-border bg-surface p-3">
      <figcaption className="mb-2 text-sm font-medium text-fg">{label}</figcaption>
      {/* The table below is the chart's accessible form: the picture (no keyboard layer) is hidden. */}
      <div style={{ height: Math.max(160, rows.length * (stacked ? 28 : 40) + 60) }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={[...rows]}
            layout="vertical"
            margin={{ left: 8, right: 8 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} fontSize={11} />
            <YAxis
              type="category"
              dataKey="name"
              width={110}
              fontSize={11}
              tickFormatter={(v: string) => (v.length > 16 ? `${v.slice(0, 15)}…` : v)}
            />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            {series.map((s) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                fill={s.colour}
                stackId={stacked ? 'stack' : undefined}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <p className="sr-only">The figures of this chart are in the table below.</p>
    </figure>
  );
}

export { COLOURS as CHART_COLOURS };
