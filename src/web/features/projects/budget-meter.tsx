import { budgetShare } from '@domain/budgets';
import { formatMinutes } from '@domain/timesheets';
import { cn, useFormat } from '@web/ui';

const hours = (minutes: number) => formatMinutes(minutes) || '0:00';

/**
 * Logged time against an hours budget: "12:30 of 40:00 h (31%)" with a bar that turns amber at 80%
 * and red past the budget. Without a budget, the time logged alone.
 */
export function BudgetMeter({
  label,
  budgetMinutes,
  actualMinutes,
  className,
}: {
  label: string;
  budgetMinutes: number | null;
  actualMinutes: number;
  className?: string;
}) {
  const format = useFormat();
  const share = budgetShare(actualMinutes, budgetMinutes);
  if (share === null || !budgetMinutes) {
    return (
      <span className={cn('text-sm tabular-nums', className)}>
        {hours(actualMinutes)} h logged <span className="text-muted-fg">· no budget</span>
      </span>
    );
  }
  const tone = share >= 100 ? 'bg-danger' : share >= 80 ? 'bg-amber-500' : 'bg-primary';
  return (
    <span className={cn('flex flex-wrap items-center gap-2', className)}>
      <span
        className="h-2 w-32 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={budgetMinutes}
        aria-valuenow={Math.min(actualMinutes, budgetMinutes)}
        aria-valuetext={`${hours(actualMinutes)} of ${hours(budgetMinutes)} hours`}
      >
        <span className={cn('block h-full', tone)} style={{ width: `${Math.min(share, 100)}%` }} />
      </span>
      <span className="text-sm tabular-nums">
        {hours(actualMinutes)} of {hours(budgetMinutes)} h{' '}
        <span className={share >= 100 ? 'font-medium text-danger' : 'text-muted-fg'}>
          ({format.number(share)}%{share > 100 ? ', over budget' : ''})
        </span>
      </span>
    </span>
  );
}
