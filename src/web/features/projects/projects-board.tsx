import { STATUS_DISPLAY, STORED_STATUSES, type TStoredStatus } from '@domain/status';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { cn, Select, Skeleton, StatusBadge, useFormat } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { Progress } from './project-progress';
import { useSetProjectStatus } from './use-project-actions';

/**
 * Columns by stored status. Moving a card (drag it, or choose in its "Move to" menu from the
 * keyboard) changes the project's status.
 */
export function ProjectsBoard({
  input,
}: {
  input: { clientId?: string; serviceId?: string; memberId?: string };
}) {
  const board = useQuery(trpc.projects.board.queryOptions(input));
  const canEdit = useCan('projects.edit');
  const setStatus = useSetProjectStatus();
  const format = useFormat();
  const [over, setOver] = useState<TStoredStatus | null>(null);
  const move = (projectId: string, status: TStoredStatus) => setStatus.mutate({ projectId, status });
  if (!board.data) {
    return (
      <div className="grid gap-3 md:grid-cols-4">
        {STORED_STATUSES.map((s) => (
          <Skeleton key={s} className="h-48" />
        ))}
      </div>
    );
  }
  return (
    <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-4">
      {board.data.columns.map((column) => (
        <section
          key={column.status}
          aria-label={`${STATUS_DISPLAY[column.status].label} projects`}
          data-status-column={column.status}
          className={cn(
            'flex min-h-40 flex-col gap-2 rounded-lg border border-border bg-muted/40 p-2',
            over === column.status && 'ring-2 ring-ring',
          )}
          onDragOver={(e) => {
            if (!canEdit) return;
            e.preventDefault();
            setOver(column.status);
          }}
          onDragLeave={() => setOver(null)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(null);
            const id = e.dataTransfer.getData('text/project-id');
            if (id) move(id, column.status);
          }}
        >
          <h2 className="flex items-center justify-between px-1 text-sm font-semibold text-fg">
            <StatusBadge status={column.status} />
            <span className="text-xs font-normal text-muted-fg">{format.number(column.total)}</span>
          </h2>
          {column.rows.length === 0 ? (
            <p className="px-1 py-4 text-center text-xs text-muted-fg">No projects</p>
          ) : null}
          {column.rows.map((p) => (
            <article
              key={p.id}
              draggable={canEdit}
              onDragStart={(e) => e.dataTransfer.setData('text/project-id', p.id)}
              className="flex flex-col gap-1.5 rounded-md border border-border bg-surface p-2.5 shadow-xs"
              data-testid="project-card"
            >
              <Link
                to="/projects/$id"
                params={{ id: p.id }}
                className="text-sm font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              >
                {p.name}
              </Link>
              <p className="text-xs text-muted-fg">
                {p.client.name} · due {format.date(p.dueDate)}
              </p>
              <div className="flex items-center justify-between gap-2">
                <StatusBadge
                  item={{ status: p.status, dueDate: p.dueDate, completedDate: p.completedDate }}
                />
                <Progress {...p.progress} />
              </div>
              {canEdit ? (
                <Select
                  size="sm"
                  aria-label={`Move ${p.name} to`}
                  value={p.status}
                  onValueChange={(v) => move(p.id, v as TStoredStatus)}
                  options={STORED_STATUSES.map((s) => ({
                    value: s,
                    label: `Move to ${STATUS_DISPLAY[s].label}`,
                  }))}
                />
              ) : null}
            </article>
          ))}
          {column.total > column.rows.length ? (
            <p className="px-1 text-xs text-muted-fg">
              Showing the {column.rows.length} due soonest of {format.number(column.total)}: use the list to
              see them all.
            </p>
          ) : null}
        </section>
      ))}
    </div>
  );
}
