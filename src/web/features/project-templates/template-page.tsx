import { budgetText } from '@domain/budgets';
import { offsetLabel } from '@domain/project-templates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  confirm,
  EmptyState,
  IconButton,
  PageHeader,
  Spinner,
  toast,
} from '@web/ui';
import { ArrowDown, ArrowUp, ListChecks, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { StagesCard } from '../automations/stages-card';
import { TemplateRulesCard } from '../automations/template-rules-card';
import { ProjectTemplateRequestCard } from '../requests/flow/project-template-request-card';
import { RequirePermission, useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { BlueprintDialog, type TBlueprint } from './blueprint-dialog';
import { TemplateDialog } from './templates-page';

const route = getRouteApi('/_main/admin/templates/projects/$id');

/** /admin/templates/projects/{id}: a template's ordered task blueprints. */
export function TemplatePage() {
  return (
    <RequirePermission permission="templates.view">
      <TemplateScreen />
    </RequirePermission>
  );
}

function TemplateScreen() {
  const { id } = route.useParams();
  const go = useNavigate();
  const queryClient = useQueryClient();
  const canEdit = useCan('templates.edit');
  const canDelete = useCan('templates.delete');
  const canManageRules = useCan('automations.manage');
  const detail = useQuery({ ...trpc.projectTemplates.get.queryOptions({ templateId: id }), retry: false });
  const [editing, setEditing] = useState<TBlueprint | null>(null);
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.projectTemplates.pathKey() });
  const move = useMutation(trpc.projectTemplates.blueprints.move.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.projectTemplates.blueprints.remove.mutationOptions({
      onSuccess: async () => {
        toast.success('Task removed');
        await refresh();
      },
    }),
  );
  const archive = useMutation(
    trpc.projectTemplates.archive.mutationOptions({
      onSuccess: async () => {
        toast.success('Template archived');
        await refresh();
      },
    }),
  );
  const restore = useMutation(
    trpc.projectTemplates.restore.mutationOptions({
      onSuccess: async () => {
        toast.success('Template restored');
        await refresh();
      },
    }),
  );
  const destroy = useMutation(
    trpc.projectTemplates.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Template deleted');
        await refresh();
        await go({ to: '/admin/templates/projects' });
      },
    }),
  );

  if (detail.error?.data?.code === 'NOT_FOUND') {
    return (
      <RecordNotFound
        thing="template"
        back={{ to: '/admin/templates/projects', label: 'Back to templates' }}
      />
    );
  }
  const t = detail.data;
  if (!t) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  const name = (list: { id: string; name: string }[], key: string | null) =>
    list.find((x) => x.id === key)?.name;
  const assigneeText = (b: TBlueprint) =>
    b.assigneeMemberId
      ? (name(t.members, b.assigneeMemberId) ?? 'A former member')
      : b.assigneeRoleId
        ? `Assignees who are ${name(t.roles, b.assigneeRoleId) ?? 'a removed role'}`
        : "The engagement's assignees";

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={
          <span className="flex items-center gap-2">
            {t.name}
            {t.archivedAt ? <Badge tone="grey">Archived</Badge> : null}
          </span>
        }
        description={`${t.description ?? 'The tasks every project made from this template starts with.'}${
          t.budgetMinutes ? ` Hours budget: ${budgetText(t.budgetMinutes)} h.` : ''
        }`}
        trail={[
          { label: 'Admin', to: '/admin' },
          { label: 'Project templates', to: '/admin/templates/projects' },
          { label: t.name },
        ]}
        actions={
          <>
            {canEdit ? (
              <Button variant="outline" onClick={() => setRenaming(true)}>
                <Pencil aria-hidden />
                Edit
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                variant="outline"
                onClick={() => (t.archivedAt ? restore : archive).mutate({ templateId: t.id })}
              >
                {t.archivedAt ? 'Restore' : 'Archive'}
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                variant="danger"
                onClick={async () => {
                  if (
                    await confirm({
                      title: `Delete ${t.name}?`,
                      message:
                        t.services.length > 0
                          ? `${t.services.length} service(s) use it and will stop generating projects. Existing projects stay.`
                          : 'Existing projects made from it stay.',
                      confirmLabel: 'Delete',
                      danger: true,
                    })
                  )
                    destroy.mutate({ templateId: t.id });
                }}
              >
                <Trash2 aria-hidden />
                Delete
              </Button>
            ) : null}
          </>
        }
      />
      <TemplateDialog open={renaming} onOpenChange={setRenaming} template={t} />
      <BlueprintDialog
        open={adding || editing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setAdding(false);
            setEditing(null);
          }
        }}
        templateId={t.id}
        blueprint={editing}
        roles={t.roles}
        members={t.members}
        stages={t.stages}
      />
      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <CardTitle>Tasks</CardTitle>
          {canEdit ? (
            <Button size="sm" onClick={() => setAdding(true)}>
              <Plus aria-hidden />
              Add task
            </Button>
          ) : null}
        </CardHeader>
        <CardContent>
          {t.blueprints.length === 0 ? (
            <EmptyState
              icon={ListChecks}
              title="No tasks yet"
              message="Add the steps of the work in the order they are done."
            />
          ) : (
            <ol className="flex flex-col divide-y divide-border" aria-label="Tasks of the template">
              {t.blueprints.map((b, i) => (
                <li key={b.id} className="flex items-start gap-3 py-3" data-testid="blueprint">
                  <span className="mt-0.5 w-6 shrink-0 text-right text-sm tabular-nums text-muted-fg">
                    {i + 1}.
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-fg">
                      {b.title}
                      {b.forClient ? <Badge tone="yellow">Client does it</Badge> : null}
                      {b.tags.map((tag) => (
                        <Badge key={tag}>{tag}</Badge>
                      ))}
                    </p>
                    <p className="text-sm text-muted-fg">
                      {offsetLabel(b.dueOffsetDays)} · {assigneeText(b)}
                      {b.stageId ? ` · ${t.stages.find((st) => st.id === b.stageId)?.name ?? ''} stage` : ''}
                      {b.checklist.length
                        ? ` · ${b.checklist.length} checklist item${b.checklist.length === 1 ? '' : 's'}`
                        : ''}
                      {b.budgetMinutes ? ` · ${budgetText(b.budgetMinutes)} h budget` : ''}
                    </p>
                    {b.description ? <p className="mt-1 text-sm text-fg">{b.description}</p> : null}
                  </div>
                  {canEdit ? (
                    <div className="flex shrink-0 gap-1">
                      <IconButton
                        aria-label={`Move ${b.title} up`}
                        size="sm"
                        disabled={i === 0 || move.isPending}
                        onClick={() => move.mutate({ blueprintId: b.id, direction: 'up' })}
                      >
                        <ArrowUp aria-hidden />
                      </IconButton>
                      <IconButton
                        aria-label={`Move ${b.title} down`}
                        size="sm"
                        disabled={i === t.blueprints.length - 1 || move.isPending}
                        onClick={() => move.mutate({ blueprintId: b.id, direction: 'down' })}
                      >
                        <ArrowDown aria-hidden />
                      </IconButton>
                      <IconButton aria-label={`Edit ${b.title}`} size="sm" onClick={() => setEditing(b)}>
                        <Pencil aria-hidden />
                      </IconButton>
                      <IconButton
                        aria-label={`Remove ${b.title}`}
                        size="sm"
                        onClick={async () => {
                          if (
                            await confirm({
                              title: `Remove ${b.title}?`,
                              message: 'Projects already made keep their task.',
                              confirmLabel: 'Remove',
                              danger: true,
                            })
                          )
                            remove.mutate({ blueprintId: b.id });
                        }}
                      >
                        <Trash2 aria-hidden />
                      </IconButton>
                    </div>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
      <StagesCard templateId={t.id} canEdit={canEdit} />
      {canManageRules ? <TemplateRulesCard templateId={t.id} /> : null}
      <ProjectTemplateRequestCard projectTemplateId={t.id} />
      <Card>
        <CardHeader>
          <CardTitle>Services using this template</CardTitle>
        </CardHeader>
        <CardContent>
          {t.services.length === 0 ? (
            <p className="text-sm text-muted-fg">
              None yet. Choose this template on a service in{' '}
              <Link to="/admin/services" className="text-primary underline">
                Services
              </Link>{' '}
              and its engagements get a project per period.
            </p>
          ) : (
            <ul className="flex flex-wrap gap-2">
              {t.services.map((s) => (
                <li key={s.id}>
                  <Link
                    to="/admin/services/$id/projects"
                    params={{ id: s.id }}
                    className="text-sm text-primary underline"
                  >
                    {s.name} ({s.code})
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
