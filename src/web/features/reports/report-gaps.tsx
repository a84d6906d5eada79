import { formatMinutes } from '@domain/timesheets';
import { Link } from '@tanstack/react-router';
import { useFormat } from '@web/ui';
import { Info } from 'lucide-react';

type TGaps = { unbudgetedTasks?: number; unratedMinutes?: number; uncostedMinutes?: number };

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/**
 * What a report's figures leave out, and where to set it: without it "Ahead 0, Load 0%" and a zero
 * value read as facts rather than as budgets and rates nobody has set.
 */
export function ReportGaps({ totals, money }: { totals: TGaps | null | undefined; money: boolean }) {
  const format = useFormat();
  if (!totals) return null;
  const unbudgeted = totals.unbudgetedTasks ?? 0;
  const unrated = money ? (totals.unratedMinutes ?? 0) : 0;
  const uncosted = money ? (totals.uncostedMinutes ?? 0) : 0;
  if (!unbudgeted && !unrated && !uncosted) return null;
  return (
    <div role="note" className="flex gap-2 rounded-lg border border-border bg-muted/40 p-3 text-sm">
      <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-fg" />
      <div className="flex flex-col gap-1">
        {totals.unbudgetedTasks ? (
          <p>
            {format.number(totals.unbudgetedTasks)} open{' '}
            {plural(totals.unbudgetedTasks, 'task has', 'tasks have')} no hours budget, so Ahead and Load
            leave {plural(totals.unbudgetedTasks, 'it', 'them')} out. Give a task a budget in its drawer, or
            give the{' '}
            <Link to="/admin/templates/projects" className="text-primary underline underline-offset-2">
              project templates' tasks
            </Link>{' '}
            budgets so new projects bring them.
          </p>
        ) : null}
        {unrated || uncosted ? (
          <p>
            {[
              unrated ? `${formatMinutes(unrated)} hours of billable time have no billing rate` : null,
              uncosted ? `${formatMinutes(uncosted)} hours have no cost rate` : null,
            ]
              .filter(Boolean)
              .join(', and ')}
            , so {uncosted ? 'Value and Cost leave' : 'Billable value leaves'} them out.{' '}
            <Link
              to="/team/timesheets"
              search={{ view: 'rates' }}
              className="text-primary underline underline-offset-2"
            >
              Set rates
            </Link>
            .
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** A figure that cannot be given because what it is made from was never set. */
export function Missing({ text, label }: { text: string; label?: string }) {
  return label ? (
    <span className="text-muted-fg">
      <span aria-hidden>{text}</span>
      <span className="sr-only">{label}</span>
    </span>
  ) : (
    // May wrap ("No / budget"): a note should not widen its column past the figures'.
    <span className="whitespace-normal text-muted-fg">{text}</span>
  );
}
