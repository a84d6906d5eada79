import { useFormat } from '@web/ui';

type THeatRow = {
  memberId: string;
  name: string;
  days: { day: string; workMinutes: number; freeMinutes: number; load: number | null }[];
};

const shade = (load: number | null, free: number) => {
  if (free === 0) return 'bg-muted text-muted-fg';
  if (load === null || load === 0) return 'bg-surface text-muted-fg';
  if (load <= 50) return 'bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-100';
  if (load <= 100) return 'bg-yellow-100 text-yellow-900 dark:bg-yellow-900/40 dark:text-yellow-100';
  return 'bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100';
};

/**
 * The coming weeks' load per member and day (budgeted work due that day against the hours free),
 * drawn as a table: the colours are for looking, the figures are in each cell for reading, and the
 * table scrolls sideways on a phone with the names held in place.
 */
export function HeatMap({ rows }: { rows: THeatRow[] }) {
  const format = useFormat();
  const days = rows[0]?.days.map((d) => d.day) ?? [];
  if (!rows.length) return null;
  return (
    <section aria-labelledby="heat-map-title" className="rounded-lg border border-border bg-surface p-3">
      <h2 id="heat-map-title" className="text-sm font-medium text-fg">
        Load per day, the next four weeks
      </h2>
      <p className="mb-2 text-xs text-muted-fg">
        Budgeted hours of open tasks due that day against the hours free (work pattern, holidays and leave).
        Grey: not a working day.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways and holds no control must take focus, or a keyboard cannot scroll it */}
      <section data-scrolls="" className="overflow-x-auto" tabIndex={0} aria-label="Load per day">
        <table className="border-separate border-spacing-0.5 text-xs">
          <thead>
            <tr>
              <th scope="col" className="sticky left-0 bg-surface p-1 text-left font-medium">
                Member
              </th>
              {days.map((d) => (
                <th key={d} scope="col" className="min-w-10 p-1 text-center font-normal text-muted-fg">
                  {format.date(d, 'weekday')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.memberId}>
                <th
                  scope="row"
                  className="sticky left-0 max-w-32 truncate bg-surface p-1 text-left font-medium"
                >
                  {r.name}
                </th>
                {r.days.map((d) => (
                  <td
                    key={d.day}
                    className={`rounded p-1 text-center tabular-nums ${shade(d.load, d.freeMinutes)}`}
                    title={`${format.number(d.workMinutes / 60, { maximumFractionDigits: 1 })} h due of ${format.number(d.freeMinutes / 60, { maximumFractionDigits: 1 })} h free`}
                  >
                    {d.freeMinutes === 0 ? '–' : d.load === null ? '0%' : `${d.load}%`}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}
