import type { TFormatter } from '@domain/format';
import { STATUS_DISPLAY, STORED_STATUSES, type TStoredStatus } from '@domain/status';
import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  confirm,
  IconButton,
  PageHeader,
  Select,
  Spinner,
  StatusBadge,
  toast,
  useFormat,
} from '@web/ui';
import { Archive, ExternalLink, Pencil, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { ProjectStage } from '../automations/stage-board';
import { ProjectRequestsCard } from '../requests/flow/project-requests-card';
import { NoAccess, useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { ProjectBudget } from './project-budget';
import { ProjectDialog } from './project-dialog';
import { Progress } from './project-progress';
import { useProjectsRefresh, useSetProjectStatus } from './use-project-actions';

const route = getRouteApi('/_main/projects/$id');
export type TProjectDetail = inferRouterOutputs<AppRouter>['projects']['get'];

/** /projects/{id}: a project's status, dates, people, budget, tasks, timeline and activity. */
export function ProjectPage() {
  const canView = useCan('projects.view');
  if (!canView) return <NoAccess message="Your role does not include projects." />;
  return <ProjectScreen />;
}

function ProjectScreen() {
  const { id } = route.useParams();
  const detail = useQuery(trpc.projects.get.queryOptions({ projectId: id }));
  if (detail.error?.data?.code === 'NOT_FOUND') {
    return <RecordNotFound thing="project" back={{ to: '/projects', label: 'Back to projects' }} />;
  }
  // Anything else, once its retries are spent, is the error screen rather than a spinner forever.
  if (detail.error) throw detail.error;
  if (!detail.data) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  return <ProjectDetail project={detail.data} />;
}

function ProjectDetail({ project: p }: { project: TProjectDetail }) {
  const go = useNavigate();
  const canEdit = useCan('projects.edit');
  const canDelete = useCan('projects.delete');
  const refresh = useProjectsRefresh();
  const format = useFormat();
  const [editing, setEditing] = useState(false);
  const setStatus = useSetProjectStatus();
  const after = (message: string) => async () => {
    toast.success(message);
    await refresh();
  };
  const addMember = useMutation(
    trpc.projects.addMember.mutationOptions({ onSuccess: after('Member added') }),
  );
  const removeMember = useMutation(
    trpc.projects.removeMember.mutationOptions({ onSuccess: after('Member removed') }),
  );
  const archive = useMutation(
    trpc.projects.archive.mutationOptions({ onSuccess: after('Project archived') }),
  );
  const restore = useMutation(
    trpc.projects.restore.mutationOptions({ onSuccess: after('Project restored') }),
  );
  const destroy = useMutation(
    trpc.projects.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Project deleted');
        await go({ to: '/projects' });
        await refresh();
      },
    }),
  );
  const options = useQuery({ ...trpc.projects.options.queryOptions(), enabled: canEdit });
  const others = (options.data?.members ?? []).filter((m) => !p.members.some((x) => x.id === m.id));
  const item = { status: p.status, dueDate: p.dueDate, completedDate: p.completedDate };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Projects', to: '/projects' }, { label: p.name }]}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {p.name}
            <StatusBadge item={item} />
            {p.archivedAt ? <Badge tone="grey">Archived</Badge> : null}
          </span>
        }
        description={
          <span>
            <Link to="/clients/$id" params={{ id: p.client.id }} className="text-primary underline">
              {p.client.name}
            </Link>
            {p.service ? ` · ${p.service.name}` : ''}
            {p.periodKey && p.periodKey !== 'once' ? ` · period ${p.periodKey}` : ''}
            {p.template ? ` · from the template ${p.template.name}` : ''}
          </span>
        }
        actions={
          <>
            <ProjectStage projectId={p.id} templateId={p.templateId} stageId={p.stageId} />
            {canEdit ? (
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden />
                Edit
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                variant="outline"
                onClick={async () => {
                  if (p.archivedAt) return restore.mutate({ projectId: p.id });
                  if (
                    await confirm({
                      title: `Archive ${p.name}?`,
                      message: 'It leaves the lists; you can restore it from the archived filter.',
                      confirmLabel: 'Archive',
                    })
                  )
                    archive.mutate({ projectId: p.id });
                }}
              >
                <Archive aria-hidden />
                {p.archivedAt ? 'Restore' : 'Archive'}
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                variant="danger"
                onClick={async () => {
                  if (
                    await confirm({
                      title: `Delete ${p.name}?`,
                      message: `Its ${p.tasks.length} task(s) are deleted too. This cannot be undone.${p.periodKey ? ' A recurring period is created again by the next run: archive it to keep it gone.' : ''}`,
                      confirmLabel: 'Delete',
                      danger: true,
                    })
                  )
                    destroy.mutate({ projectId: p.id });
                }}
              >
                <Trash2 aria-hidden />
                Delete
              </Button>
            ) : null}
          </>
        }
      />
      <ProjectDialog open={editing} onOpenChange={setEditing} project={p} />

      <div className="grid gap-4 md:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Status</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {canEdit ? (
              <Select
                aria-label="Project status"
                value={p.status}
                onValueChange={(v) => setStatus.mutate({ projectId: p.id, status: v as TStoredStatus })}
                options={STORED_STATUSES.map((s) => ({ value: s, label: STATUS_DISPLAY[s].label }))}
              />
            ) : (
              <StatusBadge status={p.status} />
            )}
            <Progress {...p.progress} />
            <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-fg">Start</dt>
              <dd>{format.date(p.startDate)}</dd>
              <dt className="text-muted-fg">Due</dt>
              <dd>{format.date(p.dueDate)}</dd>
              <dt className="text-muted-fg">Completed</dt>
              <dd>{format.date(p.completedDate)}</dd>
            </dl>
          </CardContent>
        </Card>
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle>People</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <p className="text-sm">
              <span className="text-muted-fg">Owner: </span>
              {p.owner?.name ?? 'nobody yet'}
            </p>
            <ul className="flex flex-wrap gap-2" aria-label="Members">
              {p.members.length === 0 ? <li className="text-sm text-muted-fg">No members yet</li> : null}
              {p.members.map((m) => (
                <li
                  key={m.id}
                  className="flex items-center gap-1 rounded-full border border-border py-0.5 pr-1 pl-2.5 text-sm"
                >
                  {m.name}
                  {canEdit && m.id !== p.owner?.id ? (
                    <IconButton
                      size="sm"
                      aria-label={`Remove ${m.name}`}
                      onClick={() => removeMember.mutate({ projectId: p.id, memberId: m.id })}
                    >
                      <X aria-hidden />
                    </IconButton>
                  ) : null}
                </li>
              ))}
            </ul>
            {canEdit && others.length ? (
              <Select
                aria-label="Add a member"
                placeholder="Add a member…"
                className="w-60"
                value=""
                onValueChange={(memberId) => memberId && addMember.mutate({ projectId: p.id, memberId })}
                options={others.map((m) => ({ value: m.id, label: m.name }))}
              />
            ) : null}
          </CardContent>
        </Card>
      </div>

      <ProjectBudget budget={p.budget} />

      <ProjectRequestsCard projectId={p.id} clientId={p.client.id} />

      <Card>
        <CardHeader>
          <CardTitle>Tasks</CardTitle>
        </CardHeader>
        <CardContent>
          {p.tasks.length === 0 ? (
            <p className="text-sm text-muted-fg">No tasks in this project.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="sr-only">Tasks of the project</caption>
                <thead>
                  <tr className="border-b border-border text-left text-xs text-muted-fg">
                    <th className="px-2 py-2 font-medium">Task</th>
                    <th className="px-2 py-2 font-medium">Assignees</th>
                    <th className="px-2 py-2 font-medium">Status</th>
                    <th className="px-2 py-2 font-medium">Due</th>
                  </tr>
                </thead>
                <tbody>
                  {p.tasks.map((t) => (
                    <tr key={t.id} className="border-b border-border last:border-0">
                      <td className="px-2 py-2">
                        <a
                          href={`/tasks?task=${t.id}`}
                          className="inline-flex items-center gap-1 font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                        >
                          {t.title}
                          <ExternalLink aria-hidden className="size-3 text-muted-fg" />
                        </a>
                        {t.forClient ? (
                          <Badge tone="yellow" className="ml-2">
                            Client
                          </Badge>
                        ) : null}
                      </td>
                      <td className="px-2 py-2">{t.assignees.map((a) => a.name).join(', ') || '-'}</td>
                      <td className="px-2 py-2">
                        <StatusBadge
                          item={{ status: t.status, dueDate: t.dueDate, completedDate: t.completedDate }}
                        />
                      </td>
                      <td className="px-2 py-2 whitespace-nowrap">{format.date(t.dueDate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>

      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="flex flex-col gap-2 border-l border-border pl-4 text-sm" aria-label="Timeline">
              {timeline(p, format).map((e) => (
                <li key={e.label} className="relative">
                  <span
                    aria-hidden
                    className="absolute top-1.5 -left-[21px] size-2.5 rounded-full bg-primary"
                  />
                  <span className="text-muted-fg">{e.label}: </span>
                  {e.value}
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Activity</CardTitle>
          </CardHeader>
          <CardContent>
            {p.activity.length === 0 ? (
              <p className="text-sm text-muted-fg">Nothing recorded yet.</p>
            ) : (
              <ol className="flex flex-col gap-2 text-sm" aria-label="Activity">
                {p.activity.map((a) => (
                  <li key={a.id}>
                    <p>{a.summary}</p>
                    <p className="text-xs text-muted-fg">
                      {a.actorName ??
                        (a.actorKind === 'system' || a.actorKind === 'automation'
                          ? 'Automatically'
                          : 'Someone')}{' '}
                      · {format.dateTime(a.at)}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function timeline(p: TProjectDetail, format: TFormatter) {
  const rows: { label: string; value: string }[] = [];
  if (p.periodStart && p.periodEnd && p.periodKey !== 'once') {
    rows.push({
      label: `Period ${p.periodKey}`,
      value: format.dateRange(p.periodStart, p.periodEnd),
    });
  }
  rows.push({ label: 'Starts', value: format.date(p.startDate) });
  rows.push({ label: 'Due', value: format.date(p.dueDate) });
  rows.push({
    label: 'Completed',
    value: p.completedDate ? format.date(p.completedDate) : 'not yet',
  });
  return rows;
}
