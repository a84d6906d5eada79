import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  BoardCard,
  BoardColumn,
  EmptyState,
  Select,
  Skeleton,
  StatusBadge,
  toast,
  useBoardDrop,
  useFormat,
} from '@web/ui';
import { Columns3 } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';

const NONE = 'none';

/** Moves a project to a stage (or none), refreshing the boards and the project. */
export function useMoveStage() {
  const queryClient = useQueryClient();
  return useMutation(
    trpc.stages.move.mutationOptions({
      onSuccess: async (result) => {
        if (result.moved) toast.success('Stage changed');
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.stages.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.projects.pathKey() }),
        ]);
      },
    }),
  );
}

/**
 * /projects?view=stages: the projects of one template in a column per stage. Moving a card (drag
 * it, or its "Move to" menu from the keyboard) is a stage change: logged, its owner notified.
 */
export function StageBoard({
  templateId,
  onTemplate,
}: {
  templateId: string | undefined;
  onTemplate: (templateId: string) => void;
}) {
  const templates = useQuery(trpc.projectTemplates.options.queryOptions());
  const chosen = templateId ?? templates.data?.[0]?.id;
  const board = useQuery({
    ...trpc.stages.board.queryOptions({ templateId: chosen ?? '' }),
    enabled: Boolean(chosen),
  });
  const canEdit = useCan('projects.edit');
  const move = useMoveStage();
  const format = useFormat();
  const drop = useBoardDrop();

  const picker = (
    <Select
      aria-label="Template"
      className="w-64"
      value={chosen ?? ''}
      onValueChange={onTemplate}
      placeholder="Choose a template"
      options={(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
    />
  );
  if (templates.data && templates.data.length === 0) {
    return (
      <EmptyState
        icon={Columns3}
        title="No project templates"
        message="Stages belong to a project template: add one with its stages under Admin › Project templates."
      />
    );
  }
  if (!board.data) {
    return (
      <div className="flex flex-col gap-3">
        {picker}
        <div className="grid gap-3 md:grid-cols-3 xl:grid-cols-6">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-48" />
          ))}
        </div>
      </div>
    );
  }
  const { columns } = board.data;
  return (
    <div className="flex flex-col gap-3">
      {picker}
      {board.data.stages.length === 0 ? (
        <EmptyState
          icon={Columns3}
          title={`${board.data.template.name} has no stages`}
          message="Add its stages (for example Waiting on client, Preparation, Review, Filed) on the template's page."
          action={
            <Link
              to="/admin/templates/projects/$id"
              params={{ id: board.data.template.id }}
              className="text-sm font-medium text-primary underline"
            >
              Open the template
            </Link>
          }
        />
      ) : (
        <div className="flex gap-3 overflow-x-auto pb-2" data-testid="stage-board">
          {columns.map((column) => {
            const key = column.stageId ?? NONE;
            return (
              <BoardColumn
                key={key}
                columnKey={key}
                label={`${column.name} projects`}
                data={{ 'data-stage-column': column.name }}
                className="min-w-56 flex-1"
                drop={drop}
                onDropCard={
                  canEdit ? (id) => move.mutate({ projectId: id, stageId: column.stageId }) : undefined
                }
                heading={
                  <>
                    <span>{column.name}</span>
                    <span className="text-xs font-normal text-muted-fg">{format.number(column.total)}</span>
                  </>
                }
                empty={column.rows.length === 0}
                footer={
                  column.total > column.rows.length
                    ? `Showing the ${column.rows.length} due soonest of ${format.number(column.total)}.`
                    : null
                }
              >
                {column.rows.map((p) => (
                  <BoardCard key={p.id} cardId={p.id} draggable={canEdit} testId="stage-card">
                    <Link
                      to="/projects/$id"
                      params={{ id: p.id }}
                      className="text-sm font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      {p.name}
                    </Link>
                    <p className="text-xs text-muted-fg">
                      {p.clientName} · due {format.date(p.dueDate)}
                      {p.ownerName ? ` · ${p.ownerName}` : ''}
                    </p>
                    <StatusBadge item={{ status: p.status, dueDate: p.dueDate, completedDate: null }} />
                    {canEdit ? (
                      <Select
                        size="sm"
                        aria-label={`Move ${p.name} to`}
                        value={p.stageId ?? NONE}
                        onValueChange={(v) =>
                          move.mutate({ projectId: p.id, stageId: v === NONE ? null : v })
                        }
                        options={[
                          ...board.data.stages.map((s) => ({ value: s.id, label: `Move to ${s.name}` })),
                          { value: NONE, label: 'No stage' },
                        ]}
                      />
                    ) : null}
                  </BoardCard>
                ))}
              </BoardColumn>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** The project page's stage: its template's stages to choose from (nothing when it has none). */
export function ProjectStage({
  projectId,
  templateId,
  stageId,
}: {
  projectId: string;
  templateId: string | null;
  stageId: string | null;
}) {
  const stages = useQuery({
    ...trpc.stages.list.queryOptions({ templateId: templateId ?? '' }),
    enabled: Boolean(templateId),
  });
  const canEdit = useCan('projects.edit');
  const move = useMoveStage();
  if (!templateId || !stages.data || stages.data.stages.length === 0) return null;
  const current = stages.data.stages.find((s) => s.id === stageId);
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="text-muted-fg">Stage</span>
      {canEdit ? (
        <Select
          size="sm"
          className="w-48"
          aria-label="Stage"
          value={stageId ?? NONE}
          onValueChange={(v) => move.mutate({ projectId, stageId: v === NONE ? null : v })}
          options={[
            ...stages.data.stages.map((s) => ({ value: s.id, label: s.name })),
            { value: NONE, label: 'No stage' },
          ]}
        />
      ) : (
        <span className="font-medium text-fg">{current?.name ?? 'No stage'}</span>
      )}
    </div>
  );
}
