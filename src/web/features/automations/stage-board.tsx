import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { cn, EmptyState, Select, Skeleton, StatusBadge, toast, useFormat } from '@web/ui';
import { Columns3 } from 'lucide-react';
import { useState } from 'react';
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
  const [over, setOver] = useState<string | null>(null);

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
              <section
                key={key}
                aria-label={`${column.name} projects`}
                data-stage-column={column.name}
                className={cn(
                  'flex min-h-40 min-w-56 flex-1 flex-col gap-2 rounded-lg border border-border bg-muted/40 p-2',
                  over === key && 'ring-2 ring-ring',
                )}
                onDragOver={(e) => {
                  if (!canEdit) return;
                  e.preventDefault();
                  setOver(key);
                }}
                onDragLeave={() => setOver(null)}
                onDrop={(e) => {
                  e.preventDefault();
                  setOver(null);
                  const id = e.dataTransfer.getData('text/project-id');
                  if (id) move.mutate({ projectId: id, stageId: column.stageId });
                }}
              >
                <h2 className="flex items-center justify-between px-1 text-sm font-semibold text-fg">
                  <span>{column.name}</span>
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
                    data-testid="stage-card"
                  >
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
                  </article>
                ))}
                {column.total > column.rows.length ? (
                  <p className="px-1 text-xs text-muted-fg">
                    Showing the {column.rows.length} due soonest of {format.number(column.total)}.
                  </p>
                ) : null}
              </section>
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
