import {
  ACTION_LABELS,
  CONDITION_KINDS,
  CONDITION_LABELS,
  READY_MADE_RULES,
  RUN_OUTCOME_LABELS,
  type TAction,
  type TConditionKind,
  TRIGGER_KINDS,
  TRIGGER_LABELS,
  type TRuleInput,
  type TRunOutcome,
  type TTrigger,
  ZRuleInput,
} from '@domain/automations';
import { CLIENT_TYPE_LABELS, CLIENT_TYPES } from '@domain/clients';
import { MONTHS } from '@domain/onboarding';
import { FREQUENCY_LABELS, SERVICE_FREQUENCIES, type TServiceFrequency } from '@domain/services';
import { STATUS_DISPLAY, STORED_STATUSES, type TStoredStatus } from '@domain/status';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  EmptyState,
  Field,
  IconButton,
  Input,
  PageHeader,
  Select,
  Skeleton,
  Switch,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { Plus, Trash2, Workflow } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission } from '../shell/access';

const route = getRouteApi('/_main/admin/automations');

const OUTCOME_TONE: Record<TRunOutcome, 'green' | 'red' | 'yellow'> = {
  done: 'green',
  failed: 'red',
  stopped_loop: 'yellow',
};

/** /admin/automations: the firm's rules, on or off; the chosen one's editor, preview and run history. */
export function AutomationsPage() {
  return (
    <RequirePermission permission="automations.manage">
      <Automations />
    </RequirePermission>
  );
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.automations.pathKey() });
}

function Automations() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const open = (rule: string | undefined) => navigate({ search: { rule }, replace: true });
  const rules = useQuery(trpc.automations.list.queryOptions());
  const refresh = useRefresh();
  const format = useFormat();
  const enable = useMutation(
    trpc.automations.setEnabled.mutationOptions({
      onSuccess: async (r) => {
        toast.success(r.enabled ? 'Rule switched on' : 'Rule switched off');
        await refresh();
      },
    }),
  );
  const readyMade = useMutation(
    trpc.automations.addReadyMade.mutationOptions({
      onSuccess: async (r) => {
        toast.success('Rule added, switched off: check its preview, then switch it on');
        await refresh();
        open(r.id);
      },
    }),
  );
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Automations' }]}
        title="Automations"
        description="Rules that move work along by themselves: when something happens, if the conditions hold, do the actions in order."
        actions={
          <Button onClick={() => open('new')}>
            <Plus aria-hidden />
            New rule
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Ready-made rules</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col gap-2">
            {READY_MADE_RULES.map((r) => (
              <li key={r.key} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span>{r.name}</span>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={readyMade.isPending}
                  onClick={() => readyMade.mutate({ key: r.key })}
                >
                  Add
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Rules</CardTitle>
        </CardHeader>
        <CardContent>
          {!rules.data ? (
            <Skeleton className="h-24" />
          ) : rules.data.length === 0 ? (
            <EmptyState
              icon={Workflow}
              title="No rules yet"
              message="Add a ready-made rule above, or write your own."
            />
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-xs text-muted-fg">
                  <th className="py-2 font-medium">Rule</th>
                  <th className="py-2 font-medium">When</th>
                  <th className="py-2 font-medium">Last run</th>
                  <th className="py-2 font-medium">On</th>
                </tr>
              </thead>
              <tbody>
                {rules.data.map((r) => (
                  <tr key={r.id} className="border-t border-border" data-testid="rule-row">
                    <td className="py-2">
                      <button
                        type="button"
                        className="text-left font-medium text-primary underline"
                        onClick={() => open(r.id)}
                      >
                        {r.name}
                      </button>
                    </td>
                    <td className="py-2 text-muted-fg">{r.triggerLabel}</td>
                    <td className="py-2">
                      {r.lastRun ? (
                        <span className="flex items-center gap-2">
                          <Badge tone={OUTCOME_TONE[r.lastRun.outcome as TRunOutcome] ?? 'grey'}>
                            {RUN_OUTCOME_LABELS[r.lastRun.outcome as TRunOutcome] ?? r.lastRun.outcome}
                          </Badge>
                          <span className="text-xs text-muted-fg">
                            {format.dateTime(new Date(r.lastRun.at))}
                          </span>
                        </span>
                      ) : (
                        <span className="text-xs text-muted-fg">Never</span>
                      )}
                    </td>
                    <td className="py-2">
                      <Switch
                        aria-label={`${r.name} on`}
                        checked={r.enabled}
                        onCheckedChange={(enabled) => enable.mutate({ ruleId: r.id, enabled })}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      {search.rule ? <RuleEditor key={search.rule} ruleId={search.rule} onDone={open} /> : null}
    </div>
  );
}

/** The Select's value for "no template: write the message" (an item cannot have an empty value). */
const NO_TEMPLATE = 'none';

const BLANK: TRuleInput = {
  name: '',
  trigger: { kind: 'request.submitted' },
  conditions: [],
  actions: [{ kind: 'moveStage', stageName: 'Preparation' }],
};

function newAction(kind: TAction['kind']): TAction {
  switch (kind) {
    case 'moveStage':
      return { kind, stageName: '' };
    case 'assignOwner':
      return { kind, memberId: '' };
    case 'createTask':
      return { kind, title: '', dueInDays: null };
    case 'notifyMembers':
      return { kind, owner: true, memberIds: [], message: '' };
    case 'setClientTag':
      return { kind, tag: '' };
    case 'raiseInvoice':
      return { kind };
    case 'sendRequest':
      return { kind, requestTemplateId: '', dueInDays: 7 };
    case 'sendMessage':
      return { kind, templateId: null, text: '' };
  }
}

function newTrigger(kind: TTrigger['kind']): TTrigger {
  if (kind === 'project.stage_entered') return { kind, stageName: '' };
  if (kind === 'project.due') return { kind, days: -3 };
  if (kind === 'message.no_reply') return { kind, days: 3 };
  if (kind === 'project.stage_tasks_done') return { kind, stageName: null };
  if (kind === 'task.status_changed') return { kind, toStatus: null };
  return { kind } as TTrigger;
}

/** A condition as the editor holds it (the schema's input: a period's lists may be left out). */
type TConditionDraft = NonNullable<TRuleInput['conditions']>[number];

/** A Select's value for "any" (an item cannot have an empty value). */
const ANY = 'any';

/** A condition as the editor adds it: empty choices the schema asks to fill before saving. */
function newCondition(kind: TConditionKind): TConditionDraft {
  switch (kind) {
    case 'clientType':
      return { kind, types: ['individual'] };
    case 'clientGroup':
      return { kind, groupIds: [] };
    case 'clientTag':
      return { kind, tag: '' };
    case 'service':
      return { kind, serviceIds: [] };
    case 'assignee':
      return { kind, memberIds: [] };
    case 'projectTemplate':
      return { kind, templateIds: [] };
    case 'period':
      return { kind, frequencies: ['quarterly'], endMonths: [] };
  }
}

function RuleEditor({ ruleId, onDone }: { ruleId: string; onDone: (rule: string | undefined) => void }) {
  const isNew = ruleId === 'new';
  const rule = useQuery({ ...trpc.automations.get.queryOptions({ ruleId }), enabled: !isNew });
  const members = useQuery(trpc.projects.options.queryOptions());
  const requestTemplates = useQuery(trpc.requests.templates.list.queryOptions());
  const messageTemplates = useQuery(trpc.broadcastTemplates.list.queryOptions({ page: 1, pageSize: 100 }));
  const [draft, setDraft] = useState<TRuleInput | null>(isNew ? BLANK : null);
  const [error, setError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<TRuleInput | null>(null);
  const refresh = useRefresh();
  useEffect(() => {
    if (rule.data && !draft)
      setDraft({
        name: rule.data.name,
        trigger: rule.data.trigger,
        conditions: rule.data.conditions,
        actions: rule.data.actions,
      });
  }, [rule.data, draft]);
  const create = useMutation(
    trpc.automations.create.mutationOptions({
      onSuccess: async (r) => {
        toast.success('Rule saved, switched off');
        await refresh();
        onDone(r.id);
      },
    }),
  );
  const update = useMutation(
    trpc.automations.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Rule saved');
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.automations.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Rule deleted');
        await refresh();
        onDone(undefined);
      },
    }),
  );
  const preview = useQuery({
    ...trpc.automations.preview.queryOptions(previewing ?? BLANK),
    enabled: previewing !== null,
  });
  if (!isNew && rule.isError) {
    return <EmptyState icon={Workflow} title="Rule not found" message="It may have been deleted." />;
  }
  if (!draft) return <Skeleton className="h-64" />;
  const set = (next: Partial<TRuleInput>) => setDraft({ ...draft, ...next });
  const conditions = draft.conditions ?? [];
  const setAction = (i: number, action: TRuleInput['actions'][number]) =>
    set({ actions: draft.actions.map((a, j) => (j === i ? action : a)) });
  const setCondition = (i: number, c: NonNullable<TRuleInput['conditions']>[number]) =>
    set({ conditions: conditions.map((x, j) => (j === i ? c : x)) });
  const valid = () => {
    const parsed = ZRuleInput.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the rule');
      return null;
    }
    setError(null);
    return parsed.data;
  };
  const memberOptions = (members.data?.members ?? []).map((m) => ({ value: m.id, label: m.name }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{isNew ? 'New rule' : `Rule: ${draft.name}`}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Field label="Name" required>
          <Input value={draft.name} maxLength={120} onChange={(e) => set({ name: e.target.value })} />
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-semibold">When</legend>
          <div className="flex flex-wrap gap-2">
            <Select
              aria-label="Trigger"
              className="w-80"
              value={draft.trigger.kind}
              onValueChange={(v) => set({ trigger: newTrigger(v as TTrigger['kind']) })}
              options={TRIGGER_KINDS.map((k) => ({ value: k, label: TRIGGER_LABELS[k] }))}
            />
            {draft.trigger.kind === 'project.stage_entered' ? (
              <Input
                aria-label="Stage name"
                placeholder="Stage name, e.g. Filed"
                className="w-56"
                value={draft.trigger.stageName}
                onChange={(e) =>
                  set({ trigger: { kind: 'project.stage_entered', stageName: e.target.value } })
                }
              />
            ) : null}
            {draft.trigger.kind === 'project.stage_tasks_done' ? (
              <Input
                aria-label="Stage name (empty: the project's current stage)"
                placeholder="Stage name; empty: the current one"
                className="w-64"
                value={draft.trigger.stageName ?? ''}
                onChange={(e) =>
                  set({
                    trigger: { kind: 'project.stage_tasks_done', stageName: e.target.value || null },
                  })
                }
              />
            ) : null}
            {draft.trigger.kind === 'task.status_changed' ? (
              <Select
                aria-label="New status"
                className="w-56"
                value={draft.trigger.toStatus ?? ANY}
                onValueChange={(v) =>
                  set({
                    trigger: {
                      kind: 'task.status_changed',
                      toStatus: v === ANY ? null : (v as TStoredStatus),
                    },
                  })
                }
                options={[
                  { value: ANY, label: 'To any status' },
                  ...STORED_STATUSES.map((st) => ({ value: st, label: `To ${STATUS_DISPLAY[st].label}` })),
                ]}
              />
            ) : null}
            {draft.trigger.kind === 'message.no_reply' ? (
              <Input
                type="number"
                aria-label="Days without a reply"
                className="w-40"
                min={1}
                max={60}
                value={String(draft.trigger.days)}
                onChange={(e) =>
                  set({
                    trigger: { kind: 'message.no_reply', days: Number.parseInt(e.target.value || '0', 10) },
                  })
                }
              />
            ) : null}
            {draft.trigger.kind === 'project.due' ? (
              <Input
                type="number"
                aria-label="Days after the due date (negative: before)"
                className="w-40"
                min={-90}
                max={90}
                value={String(draft.trigger.days)}
                onChange={(e) =>
                  set({ trigger: { kind: 'project.due', days: Number.parseInt(e.target.value || '0', 10) } })
                }
              />
            ) : null}
          </div>
        </fieldset>
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-semibold">If (all of)</legend>
          {conditions.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id; the list is edited in place
            <div key={i} className="flex flex-wrap items-center gap-2">
              <ConditionFields
                condition={c}
                onChange={(next) => setCondition(i, next)}
                memberOptions={memberOptions}
              />
              <IconButton
                aria-label="Remove condition"
                onClick={() => set({ conditions: conditions.filter((_, j) => j !== i) })}
              >
                <Trash2 aria-hidden />
              </IconButton>
            </div>
          ))}
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs text-muted-fg">Add a condition:</span>
            {CONDITION_KINDS.map((kind) => (
              <Button
                key={kind}
                size="sm"
                variant="outline"
                disabled={conditions.length >= 10}
                onClick={() => set({ conditions: [...conditions, newCondition(kind)] })}
              >
                <Plus aria-hidden />
                {CONDITION_LABELS[kind]}
              </Button>
            ))}
          </div>
        </fieldset>
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-semibold">Then, in order</legend>
          {draft.actions.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: actions have no id; the list is edited in place
            <div key={i} className="flex flex-wrap items-center gap-2">
              <span className="w-5 text-right text-xs text-muted-fg">{i + 1}.</span>
              <Select
                aria-label={`Action ${i + 1}`}
                className="w-64"
                value={a.kind}
                onValueChange={(v) => setAction(i, newAction(v as TAction['kind']))}
                options={Object.entries(ACTION_LABELS).map(([value, label]) => ({ value, label }))}
              />
              {a.kind === 'moveStage' ? (
                <Input
                  aria-label={`Action ${i + 1} stage`}
                  placeholder="Stage name"
                  className="w-48"
                  value={a.stageName}
                  onChange={(e) => setAction(i, { ...a, stageName: e.target.value })}
                />
              ) : a.kind === 'createTask' ? (
                <Input
                  aria-label={`Action ${i + 1} task title`}
                  placeholder="Task title"
                  className="w-64"
                  value={a.title}
                  onChange={(e) => setAction(i, { ...a, title: e.target.value })}
                />
              ) : a.kind === 'notifyMembers' ? (
                <Input
                  aria-label={`Action ${i + 1} message`}
                  placeholder="Message to the project's owner"
                  className="w-72"
                  value={a.message}
                  onChange={(e) => setAction(i, { ...a, message: e.target.value })}
                />
              ) : a.kind === 'setClientTag' ? (
                <Input
                  aria-label={`Action ${i + 1} tag`}
                  placeholder="Tag"
                  className="w-48"
                  value={a.tag}
                  onChange={(e) => setAction(i, { ...a, tag: e.target.value })}
                />
              ) : a.kind === 'sendRequest' ? (
                <>
                  <Select
                    aria-label={`Action ${i + 1} request template`}
                    className="w-56"
                    value={a.requestTemplateId}
                    onValueChange={(requestTemplateId) => setAction(i, { ...a, requestTemplateId })}
                    options={(requestTemplates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                    placeholder="Request template"
                  />
                  <Input
                    aria-label={`Action ${i + 1} due in days`}
                    type="number"
                    min={1}
                    max={365}
                    className="w-24"
                    value={a.dueInDays ?? 7}
                    onChange={(e) => setAction(i, { ...a, dueInDays: Number(e.target.value) || 7 })}
                  />
                  <span className="text-xs text-muted-fg">days to answer</span>
                </>
              ) : a.kind === 'sendMessage' ? (
                <>
                  <Select
                    aria-label={`Action ${i + 1} message template`}
                    className="w-56"
                    value={a.templateId ?? NO_TEMPLATE}
                    onValueChange={(v) => setAction(i, { ...a, templateId: v === NO_TEMPLATE ? null : v })}
                    options={[
                      { value: NO_TEMPLATE, label: 'Write the message' },
                      ...(messageTemplates.data?.rows ?? []).map((t) => ({ value: t.id, label: t.name })),
                    ]}
                  />
                  {a.templateId ? null : (
                    <Textarea
                      aria-label={`Action ${i + 1} message`}
                      placeholder="Hello {{contact_name|there}}, …"
                      className="w-96"
                      rows={2}
                      value={a.text ?? ''}
                      onChange={(e) => setAction(i, { ...a, text: e.target.value })}
                    />
                  )}
                </>
              ) : a.kind === 'raiseInvoice' ? null : (
                <Select
                  aria-label={`Action ${i + 1} member`}
                  className="w-56"
                  value={a.memberId}
                  onValueChange={(memberId) => setAction(i, { ...a, memberId })}
                  options={memberOptions}
                  placeholder="Member"
                />
              )}
              <IconButton
                aria-label={`Remove action ${i + 1}`}
                disabled={draft.actions.length === 1}
                onClick={() => set({ actions: draft.actions.filter((_, j) => j !== i) })}
              >
                <Trash2 aria-hidden />
              </IconButton>
            </div>
          ))}
          <div>
            <Button
              size="sm"
              variant="outline"
              onClick={() => set({ actions: [...draft.actions, newAction('notifyMembers')] })}
            >
              <Plus aria-hidden />
              Add action
            </Button>
          </div>
        </fieldset>
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            disabled={create.isPending || update.isPending}
            onClick={() => {
              const values = valid();
              if (!values) return;
              if (isNew) create.mutate(values);
              else update.mutate({ ruleId, ...values });
            }}
          >
            Save rule
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              const values = valid();
              if (values) setPreviewing(values);
            }}
          >
            Preview
          </Button>
          {!isNew ? (
            <Button variant="danger" onClick={() => remove.mutate({ ruleId })}>
              Delete
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => onDone(undefined)}>
            Close
          </Button>
        </div>
        {previewing ? (
          <section
            aria-label="Preview"
            className="rounded-md border border-border p-3 text-sm"
            data-testid="rule-preview"
          >
            {preview.data ? (
              <>
                <p className="font-medium">
                  Would have fired {preview.data.events} time{preview.data.events === 1 ? '' : 's'} for{' '}
                  {preview.data.projectCount ?? 0} project{preview.data.projectCount === 1 ? '' : 's'} in the
                  last {preview.data.days} days.
                </p>
                <ul className="mt-1 list-disc pl-5 text-muted-fg">
                  {preview.data.projects.map((p) => (
                    <li key={p.id}>
                      {p.name} · {p.clientName}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <Skeleton className="h-6" />
            )}
          </section>
        ) : null}
        {!isNew ? <RunHistory ruleId={ruleId} /> : null}
      </CardContent>
    </Card>
  );
}

/**
 * One condition's choices. A list condition (groups, services, templates, members) holds any of its
 * ids; the editor picks one, as the broadcasts' audience does, and keeps the others a rule saved
 * through the API named ("and 2 more") until one is picked here.
 */
function ConditionFields({
  condition: c,
  onChange,
  memberOptions,
}: {
  condition: TConditionDraft;
  onChange: (next: TConditionDraft) => void;
  memberOptions: { value: string; label: string }[];
}) {
  const clientOptions = useQuery({
    ...trpc.clients.options.queryOptions(),
    enabled: c.kind === 'clientGroup' || c.kind === 'clientTag',
  });
  const services = useQuery({
    ...trpc.services.list.queryOptions({ page: 1, pageSize: 200, sort: 'name', direction: 'asc' }),
    enabled: c.kind === 'service',
  });
  const templates = useQuery({
    ...trpc.projectTemplates.options.queryOptions(),
    enabled: c.kind === 'projectTemplate',
  });
  const more = (ids: readonly string[]) =>
    ids.length > 1 ? <span className="text-xs text-muted-fg">and {ids.length - 1} more</span> : null;
  const label = (text: string) => <span className="w-24 text-sm text-muted-fg">{text}</span>;
  switch (c.kind) {
    case 'clientType':
      return (
        <>
          {label('Client type')}
          <Select
            aria-label="Client type"
            className="w-56"
            value={c.types[0] ?? 'individual'}
            onValueChange={(v) =>
              onChange({ kind: 'clientType', types: [v as (typeof CLIENT_TYPES)[number]] })
            }
            options={CLIENT_TYPES.map((t) => ({ value: t, label: `is ${CLIENT_TYPE_LABELS[t]}` }))}
          />
          {more(c.types)}
        </>
      );
    case 'clientGroup':
      return (
        <>
          {label('Client group')}
          <Select
            aria-label="Client group"
            className="w-56"
            value={c.groupIds[0] ?? ''}
            onValueChange={(v) => onChange({ kind: 'clientGroup', groupIds: [v] })}
            options={(clientOptions.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
            placeholder="Choose a group"
          />
          {more(c.groupIds)}
        </>
      );
    case 'clientTag':
      return (
        <>
          {label('Client tag')}
          <Input
            aria-label="Client tag"
            placeholder="The client has the tag…"
            className="w-56"
            list="automation-client-tags"
            value={c.tag}
            onChange={(e) => onChange({ kind: 'clientTag', tag: e.target.value })}
          />
          <datalist id="automation-client-tags">
            {(clientOptions.data?.tags ?? []).map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </>
      );
    case 'service':
      return (
        <>
          {label('Service')}
          <Select
            aria-label="Service"
            className="w-56"
            value={c.serviceIds[0] ?? ''}
            onValueChange={(v) => onChange({ kind: 'service', serviceIds: [v] })}
            options={(services.data?.rows ?? []).map((sv) => ({ value: sv.id, label: sv.name }))}
            placeholder="Choose a service"
          />
          {more(c.serviceIds)}
        </>
      );
    case 'assignee':
      return (
        <>
          {label('Assignee')}
          <Select
            aria-label="Assignee"
            className="w-56"
            value={c.memberIds[0] ?? ''}
            onValueChange={(v) => onChange({ kind: 'assignee', memberIds: [v] })}
            options={memberOptions}
            placeholder="Owner or member is…"
          />
          {more(c.memberIds)}
        </>
      );
    case 'projectTemplate':
      return (
        <>
          {label('Template')}
          <Select
            aria-label="Project template"
            className="w-56"
            value={c.templateIds[0] ?? ''}
            onValueChange={(v) => onChange({ kind: 'projectTemplate', templateIds: [v] })}
            options={(templates.data ?? []).map((tp) => ({ value: tp.id, label: tp.name }))}
            placeholder="Choose a template"
          />
          {more(c.templateIds)}
        </>
      );
    case 'period':
      return (
        <>
          {label('Period')}
          <Select
            aria-label="Kind of period"
            className="w-44"
            value={c.frequencies?.[0] ?? ANY}
            onValueChange={(v) => onChange({ ...c, frequencies: v === ANY ? [] : [v as TServiceFrequency] })}
            options={[
              { value: ANY, label: 'Any kind' },
              ...SERVICE_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] })),
            ]}
          />
          <Select
            aria-label="Period ends in"
            className="w-44"
            value={c.endMonths?.[0] ? String(c.endMonths[0]) : ANY}
            onValueChange={(v) => onChange({ ...c, endMonths: v === ANY ? [] : [Number(v)] })}
            options={[
              { value: ANY, label: 'Ending any month' },
              ...MONTHS.map((m, i) => ({ value: String(i + 1), label: `Ending in ${m}` })),
            ]}
          />
          {(c.frequencies?.length ?? 0) > 1 || (c.endMonths?.length ?? 0) > 1 ? (
            <span className="text-xs text-muted-fg">and more</span>
          ) : null}
        </>
      );
  }
}

function RunHistory({ ruleId }: { ruleId: string }) {
  const runs = useQuery(trpc.automations.runs.queryOptions({ ruleId }));
  const format = useFormat();
  return (
    <section aria-label="Run history" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Run history</h3>
      {!runs.data ? (
        <Skeleton className="h-16" />
      ) : runs.data.runs.length === 0 ? (
        <p className="text-sm text-muted-fg">It has not run yet.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-muted-fg">
              <th className="py-1 font-medium">When</th>
              <th className="py-1 font-medium">Project</th>
              <th className="py-1 font-medium">Outcome</th>
              <th className="py-1 font-medium">Detail</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.runs.map((r) => (
              <tr key={r.id} className="border-t border-border" data-testid="run-row">
                <td className="py-1 whitespace-nowrap">{format.dateTime(r.at)}</td>
                <td className="py-1">{r.projectName ?? '—'}</td>
                <td className="py-1">
                  <Badge tone={OUTCOME_TONE[r.outcome]}>{RUN_OUTCOME_LABELS[r.outcome]}</Badge>
                </td>
                <td className="py-1 text-muted-fg">{r.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
