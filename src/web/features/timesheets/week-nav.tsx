import { addDays } from '@domain/days';
import { Button, useFormat } from '@web/ui';
import { ChevronLeft, ChevronRight } from 'lucide-react';

/** Previous / this / next week, and the week's dates. */
export function WeekNav(props: { weekStart: string; thisWeek: string; onWeek: (weekStart: string) => void }) {
  const format = useFormat();
  return (
    <div className="flex items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        aria-label="Previous week"
        onClick={() => props.onWeek(addDays(props.weekStart, -7))}
      >
        <ChevronLeft aria-hidden />
      </Button>
      <span className="text-sm font-medium">
        {format.dateRange(props.weekStart, addDays(props.weekStart, 6))}
      </span>
      <Button
        variant="outline"
        size="sm"
        aria-label="Next week"
        onClick={() => props.onWeek(addDays(props.weekStart, 7))}
      >
        <ChevronRight aria-hidden />
      </Button>
      {props.weekStart !== props.thisWeek && (
        <Button variant="ghost" size="sm" onClick={() => props.onWeek(props.thisWeek)}>
          This week
        </Button>
      )}
    </div>
  );
}
