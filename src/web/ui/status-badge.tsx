import { displayStatus, STATUS_DISPLAY, type TDisplayStatus, type TWorkItem } from '@domain/status';
import { Badge } from './badge';

export type StatusBadgeProps = {
  /** A work item (its OVERDUE is derived from dueDate and completedDate) or a display status already known. */
  item?: TWorkItem;
  status?: TDisplayStatus | string | null;
  /** The instant "overdue" is judged against; tests pass a fixed one. */
  now?: Date;
  className?: string;
};

function resolve({ item, status, now }: StatusBadgeProps): TDisplayStatus {
  if (item) return displayStatus(item, now);
  if (status && status in STATUS_DISPLAY) return status as TDisplayStatus;
  return 'UNKNOWN';
}

/** The spec's label and colour for a work item's status (SPEC.md §4), from `@domain/status`. */
export function StatusBadge(props: StatusBadgeProps) {
  const s = resolve(props);
  const { label, colour } = STATUS_DISPLAY[s];
  return (
    <Badge tone={colour} dot className={props.className} data-status={s} data-colour={colour}>
      {label}
    </Badge>
  );
}
