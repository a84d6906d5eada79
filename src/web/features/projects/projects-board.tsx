import { STATUS_DISPLAY, STORED_STATUSES, type TStoredStatus } from '@domain/status';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BoardCard, BoardColumn, Select, Skeleton, StatusBadge, useBoardDrop, useFormat } from '@web/ui';
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
  const drop = useBoardDrop();
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
        <BoardColumn
          key={column.status}
          columnKey={column.status}
          label={`${STATUS_DISPLAY[column.status].label} projects`}
          data={{ 'data-status-column': column.status }}
          drop={drop}
          onDropCard={canEdit ? (id) => move(id, column.status) : undefined}
          heading={
            <>
              <StatusBadge status={column.status} />
              <span className="text-xs font-normal text-muted-fg">{format.number(column.total)}</span>
            </>
          }
          empty={column.rows.length === 0}
          footer={
            column.total > column.rows.length
              ? `Showing the ${column.rows.length} due soonest of ${format.number(column.total)}: use the list to see them all.`
              : null
          }
        >
          {column.rows.map((p) => (
            <BoardCard key={p.id} cardId={p.id} draggable={canEdit} testId="project-card">
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
            </BoardCard>
          ))}
        </BoardColumn>
      ))}
    </div>
  );
}
