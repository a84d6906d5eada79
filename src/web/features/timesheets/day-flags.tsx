import type { TDayFlag } from '@domain/timesheet-approval';
import { Tooltip } from '@web/ui';
import { TriangleAlert } from 'lucide-react';

/** A day's flags as a warning mark: the reasons in a tooltip and, for screen readers, in words. */
export function DayFlagMark({ flags }: { flags: readonly TDayFlag[] }) {
  if (!flags.length) return null;
  const text = flags.map((f) => f.label).join('; ');
  return (
    <Tooltip content={text}>
      <button type="button" className="inline-flex align-middle text-warning" aria-label={text}>
        <TriangleAlert className="size-3.5" aria-hidden />
      </button>
    </Tooltip>
  );
}

/** Every flagged day of a week in one line each: "Thu, 5 Mar: 14:00 is over the daily limit". */
export function flaggedDays(
  days: readonly { date: string; flags: readonly TDayFlag[] }[],
  formatDay: (day: string) => string,
): string[] {
  return days.flatMap((d) => d.flags.map((f) => `${formatDay(d.date)}: ${f.label}`));
}
