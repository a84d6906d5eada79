import {
  REQUEST_STATUS_LABELS,
  REQUEST_STATUS_TONES,
  type TRequestDisplayStatus,
} from '@domain/requests/constants';
import { Badge } from '@web/ui';

/** A request's status (Overdue derived on the server), with a dot beside the colour. */
export function RequestStatusBadge({
  status,
  className,
}: {
  status: TRequestDisplayStatus;
  className?: string;
}) {
  return (
    <Badge tone={REQUEST_STATUS_TONES[status]} dot className={className}>
      {REQUEST_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "7 of 12" with a bar: the shown items done, of the shown items. */
export function RequestProgress({ done, total }: { done: number; total: number }) {
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <div className="flex items-center gap-2 text-xs text-muted-fg">
      <div
        role="progressbar"
        aria-label="Items done"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} items done`}
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <span className="shrink-0 tabular-nums">
        {done} of {total}
      </span>
    </div>
  );
}
