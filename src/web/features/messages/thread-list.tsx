import { Badge, cn, useFormat } from '@web/ui';

export type TThreadRowView = {
  id: string;
  subject: string;
  status: 'open' | 'closed';
  lastMessageAt: Date | string;
  lastPreview: string;
  unread: number;
  clientName?: string;
  assigneeName?: string | null;
};

/** Threads, newest activity first; an unread one in bold with its count. */
export function ThreadList({
  rows,
  selected,
  onSelect,
  showClient,
}: {
  rows: TThreadRowView[];
  selected?: string;
  onSelect: (id: string) => void;
  showClient?: boolean;
}) {
  const format = useFormat();
  return (
    <ul aria-label="Conversations" className="flex flex-col divide-y divide-border">
      {rows.map((r) => (
        <li key={r.id}>
          <button
            type="button"
            aria-current={r.id === selected ? 'true' : undefined}
            onClick={() => onSelect(r.id)}
            className={cn(
              'flex w-full min-w-0 flex-col gap-0.5 px-3 py-2.5 text-left hover:bg-muted',
              r.id === selected && 'bg-muted',
            )}
          >
            <span className="flex min-w-0 items-center gap-2">
              <span className={cn('min-w-0 flex-1 truncate text-sm', r.unread > 0 && 'font-semibold')}>
                {r.subject}
              </span>
              {r.unread > 0 ? (
                <Badge tone="primary">
                  {r.unread}
                  <span className="sr-only"> unread</span>
                </Badge>
              ) : null}
              {r.status === 'closed' ? <Badge tone="grey">Closed</Badge> : null}
            </span>
            <span className="flex min-w-0 gap-2 text-xs text-muted-fg">
              {showClient && r.clientName ? (
                <span className="shrink-0 font-medium">{r.clientName}</span>
              ) : null}
              <span className="min-w-0 flex-1 truncate">{r.lastPreview}</span>
              <span className="shrink-0">{format.date(r.lastMessageAt)}</span>
            </span>
            {r.assigneeName !== undefined ? (
              <span className="text-xs text-muted-fg">
                {r.assigneeName ? `Assigned to ${r.assigneeName}` : 'Unassigned'}
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
