import { GST_STATES } from '@domain/billing/gst-states';
import { ZBroadcastContent } from '@domain/broadcasts';
import { todayIn } from '@domain/days';
import { FREQUENCY_LABELS } from '@domain/services';
import { catalogueRelease, filingsOf, findFiling } from '@domain/statutory/catalogue';
import { filingPeriodContaining, filingYear } from '@domain/statutory/rules';
import { type TExtensionInput, ZExtensionInput } from '@domain/statutory/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Checkbox,
  confirm,
  DatePicker,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  FormSelect,
  Input,
  PageHeader,
  RecordDialog,
  Select,
  Skeleton,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { CalendarClock, Plus } from 'lucide-react';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import { RichTextEditor } from '../broadcasts/rich-text-editor';
import { RequirePermission, useCan } from '../shell/access';
import { CatalogueUpdateNotice } from './catalogue-update';

type TExtensionFormInput = z.input<typeof ZExtensionInput>;

const DEFAULT_NOTICE = 'notice';

/** /admin/statutory: the product's catalogue of filings and the firm's extensions of their due dates. */
export function StatutoryPage() {
  return (
    <RequirePermission permission="services.view">
      <Statutory />
    </RequirePermission>
  );
}

/** "1 project", "2 projects", in the firm's digits. */
function useCount() {
  const format = useFormat();
  return (n: number, one: string) => `${format.number(n)} ${one}${n === 1 ? '' : 's'}`;
}

function Statutory() {
  const format = useFormat();
  const count = useCount();
  const canEdit = useCan('services.edit');
  const catalogue = useQuery(trpc.statutory.catalogue.queryOptions());
  // The extension form offers the filings, periods and dates of the version the firm accepted.
  const release = catalogue.data ? catalogueRelease(catalogue.data.version) : null;
  const extensions = useQuery(trpc.statutory.extensions.queryOptions());
  const [recording, setRecording] = useState(false);
  const [previewing, setPreviewing] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const create = useMutation(trpc.statutory.createExtension.mutationOptions());
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        title="Statutory calendar"
        description="The filings the product knows, their due dates, and the extensions the government announces."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Statutory calendar' }]}
        actions={
          canEdit ? (
            <Button onClick={() => setRecording(true)}>
              <Plus aria-hidden />
              Record an extension
            </Button>
          ) : null
        }
      />
      {catalogue.data?.pending ? (
        <CatalogueUpdateNotice current={catalogue.data.version} pending={catalogue.data.pending} />
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Extensions</CardTitle>
        </CardHeader>
        <CardContent>
          {!extensions.data ? (
            <Skeleton className="h-16 w-full" />
          ) : extensions.data.length === 0 ? (
            <p className="text-sm text-muted-fg">
              No extensions recorded. When a due date is extended, record it here once: the preview lists the
              projects that move, and applying moves them with their tasks, reminders and requests.
            </p>
          ) : (
            <table className="w-full text-sm">
              <caption className="sr-only">Recorded extensions</caption>
              <thead className="text-left text-xs text-muted-fg">
                <tr>
                  <th scope="col" className="py-1 font-normal">
                    Filing
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Period
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    For
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Due
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody>
                {extensions.data.map((e) => (
                  <tr key={e.id} className="border-t border-border">
                    <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                      {e.filingName}
                      {e.note ? <span className="block text-xs text-muted-fg">{e.note}</span> : null}
                    </th>
                    <td className="py-1.5 pr-2">{e.periodLabel}</td>
                    <td className="py-1.5 pr-2">{e.stateLabel ?? 'Everyone'}</td>
                    <td className="py-1.5 pr-2 whitespace-nowrap">
                      {e.statutoryDue ? (
                        <span className="text-muted-fg line-through">{format.date(e.statutoryDue)}</span>
                      ) : null}{' '}
                      {format.date(e.dueDate)}
                    </td>
                    <td className="py-1.5">
                      {e.appliedAt ? (
                        <Badge tone="green" dot>
                          Applied · {count(e.projectsMoved ?? 0, 'project')} moved
                        </Badge>
                      ) : (
                        <Button size="sm" variant="outline" onClick={() => setPreviewing(e.id)}>
                          Preview and apply
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Catalogue {catalogue.data ? `(version ${catalogue.data.version})` : ''}</CardTitle>
        </CardHeader>
        <CardContent>
          {!catalogue.data ? (
            <Skeleton className="h-40 w-full" />
          ) : (
            <table className="w-full text-sm">
              <caption className="sr-only">Statutory filings</caption>
              <thead className="text-left text-xs text-muted-fg">
                <tr>
                  <th scope="col" className="py-1 font-normal">
                    Filing
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Authority
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Frequency
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Next due
                  </th>
                </tr>
              </thead>
              <tbody>
                {catalogue.data.filings.map((f) => (
                  <tr key={f.code} className="border-t border-border">
                    <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                      <span className="font-medium">{f.name}</span>
                      <span className="block text-xs text-muted-fg">{f.description}</span>
                    </th>
                    <td className="py-1.5 pr-2">{f.authority}</td>
                    <td className="py-1.5 pr-2">{FREQUENCY_LABELS[f.frequency]}</td>
                    <td className="py-1.5 whitespace-nowrap">
                      {f.nextDue ? `${format.date(f.nextDue.due)} (${f.nextDue.periodLabel})` : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="mt-3 text-sm text-muted-fg">
            A service takes a filing’s periods and due dates when it is linked to it in{' '}
            <Link to="/admin/services" className="text-primary underline underline-offset-2">
              Services
            </Link>
            ; a client’s registrations decide which filings it must make (see the{' '}
            <Link to="/reports/statutory/gaps" className="text-primary underline underline-offset-2">
              statutory gaps
            </Link>
            ).
          </p>
        </CardContent>
      </Card>
      {canEdit ? (
        <RecordDialog
          open={recording}
          onOpenChange={setRecording}
          schema={ZExtensionInput}
          values={
            {
              filingCode: 'IN.GSTR3B.M',
              periodKey: '',
              stateCode: null,
              dueDate: '',
              note: '',
            } as TExtensionFormInput
          }
          submit={(v: TExtensionInput) => create.mutateAsync(v)}
          onSaved={async (r) => {
            toast.success('Extension recorded: check what moves, then apply it');
            await queryClient.invalidateQueries({ queryKey: trpc.statutory.extensions.queryKey() });
            setPreviewing(r.id);
          }}
          title="Record an extension"
          description="A filing's due date for one period, extended for everyone or for one state."
          submitLabel="Record and preview"
        >
          {(form) => {
            const errors = form.formState.errors;
            const filing = release ? findFiling(form.watch('filingCode'), release) : null;
            const today = todayIn(format.timeZone);
            const year = filing ? Number(filingPeriodContaining(filing, today).start.slice(0, 4)) : 0;
            const periods = filing
              ? [
                  ...filingYear(filing, year - 1),
                  ...filingYear(filing, year),
                  ...filingYear(filing, year + 1),
                ]
              : [];
            return (
              <>
                <Field label="Filing" error={errors.filingCode?.message} required>
                  <FormSelect
                    control={form.control}
                    name="filingCode"
                    options={(release ? filingsOf(release) : []).map((f) => ({
                      value: f.code,
                      label: f.name,
                    }))}
                  />
                </Field>
                <Field label="Period" error={errors.periodKey?.message} required>
                  <FormSelect
                    control={form.control}
                    name="periodKey"
                    options={periods.map((o) => ({
                      value: o.period.key,
                      label: `${o.period.label} · due ${format.date(o.due)}`,
                    }))}
                  />
                </Field>
                <Field
                  label="For"
                  hint="Leave as everyone unless the extension names a state"
                  error={errors.stateCode?.message}
                >
                  <FormSelect
                    control={form.control}
                    name="stateCode"
                    none="Everyone"
                    options={GST_STATES.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
                  />
                </Field>
                <Field label="New due date" error={errors.dueDate?.message} required>
                  <Controller
                    control={form.control}
                    name="dueDate"
                    render={({ field }) => (
                      <DatePicker
                        {...field}
                        value={field.value || null}
                        onChange={(v) => field.onChange(v ?? '')}
                      />
                    )}
                  />
                </Field>
                <Field label="Note" hint="The notification or press release" error={errors.note?.message}>
                  <Textarea rows={2} {...form.register('note')} />
                </Field>
              </>
            );
          }}
        </RecordDialog>
      ) : null}
      {previewing ? <ExtensionPreview extensionId={previewing} onClose={() => setPreviewing(null)} /> : null}
    </div>
  );
}

function ExtensionPreview({ extensionId, onClose }: { extensionId: string; onClose: () => void }) {
  const format = useFormat();
  const count = useCount();
  const canApply = useCan('services.edit');
  const queryClient = useQueryClient();
  const canTell = useCan('broadcasts.send');
  const canTemplates = useCan('templates.view');
  const preview = useQuery(trpc.statutory.previewExtension.queryOptions({ extensionId }));
  const [tell, setTell] = useState(false);
  const [templateId, setTemplateId] = useState(DEFAULT_NOTICE);
  const [notice, setNotice] = useState<{ subject: string; bodyHtml: string } | null>(null);
  const [noticeErrors, setNoticeErrors] = useState<{ subject?: string; bodyHtml?: string }>({});
  const templates = useQuery({
    ...trpc.broadcastTemplates.list.queryOptions({ pageSize: 200 }),
    enabled: tell && canTemplates,
  });
  const p = preview.data;
  // The default notice fills the fields once the preview has it; a template replaces it.
  const message = notice ?? p?.notice ?? { subject: '', bodyHtml: '' };
  const pickTemplate = (id: string) => {
    setTemplateId(id);
    const t = templates.data?.rows.find((r) => r.id === id);
    setNotice(t ? { subject: t.subject, bodyHtml: t.bodyHtml } : null);
  };
  const apply = useMutation(
    trpc.statutory.applyExtension.mutationOptions({
      onSuccess: async (moved) => {
        toast.success(
          `Moved ${count(moved.projects, 'project')}, ${count(moved.tasks, 'task')}, ${count(moved.reminders, 'reminder')} and ${count(moved.requests, 'request')}`,
        );
        if (moved.broadcast)
          toast.success(
            `The broadcast tells ${count(moved.broadcast.recipients, 'recipient')}${moved.broadcast.queueing ? ' (queueing the rest)' : ''}`,
          );
        else if (moved.notSent) toast.error(`No broadcast was sent. ${moved.notSent}`);
        await queryClient.invalidateQueries({ queryKey: trpc.statutory.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.projects.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
        onClose();
      },
    }),
  );
  const noticeValid = () => {
    const parsed = ZBroadcastContent.safeParse(message);
    if (parsed.success) {
      setNoticeErrors({});
      return true;
    }
    const next: typeof noticeErrors = {};
    for (const issue of parsed.error.issues) next[issue.path[0] as 'subject' | 'bodyHtml'] ??= issue.message;
    setNoticeErrors(next);
    return false;
  };
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent
        size="xl"
        title={p ? `Extension of ${p.extension.filingName}, ${p.extension.periodLabel}` : 'Extension'}
        description={
          p
            ? `Due ${format.date(p.extension.dueDate)} instead of ${format.date(p.extension.statutoryDue)}${p.extension.stateLabel ? ` in ${p.extension.stateLabel}` : ''}.`
            : undefined
        }
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
            {canApply && p && !p.extension.appliedAt ? (
              <Button
                loading={apply.isPending}
                disabled={p.totals.projects === 0}
                onClick={async () => {
                  if (tell && !noticeValid()) return;
                  if (
                    await confirm({
                      title: `Move ${count(p.totals.projects, 'project')}?`,
                      message: `Their due dates, open tasks, reminders and requests move now, and the system log records it.${tell ? ' A broadcast tells their clients.' : ''}`,
                      confirmLabel: 'Apply extension',
                    })
                  )
                    apply.mutate({
                      extensionId,
                      notice: tell
                        ? { ...message, templateId: templateId === DEFAULT_NOTICE ? null : templateId }
                        : null,
                    });
                }}
              >
                <CalendarClock aria-hidden />
                Apply extension
              </Button>
            ) : null}
          </>
        }
      >
        {!p ? (
          <Skeleton className="h-24 w-full" />
        ) : p.totals.projects === 0 ? (
          <p className="text-muted-fg">
            {p.extension.appliedAt
              ? 'This extension has been applied.'
              : 'No open project of a service linked to this filing falls due before the new date for this period.'}
          </p>
        ) : (
          <>
            <p className="mb-2" aria-live="polite">
              {`${count(p.totals.projects, 'project')} ${p.totals.projects === 1 ? 'moves' : 'move'}, with ${count(p.totals.tasks, 'open task')}, ${count(p.totals.reminders, 'reminder')} and ${count(p.totals.requests, 'request')}.`}
            </p>
            <table className="w-full text-sm">
              <caption className="sr-only">Projects that move</caption>
              <thead className="text-left text-xs text-muted-fg">
                <tr>
                  <th scope="col" className="py-1 font-normal">
                    Client
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Project
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Due
                  </th>
                  <th scope="col" className="py-1 text-right font-normal">
                    Tasks
                  </th>
                  <th scope="col" className="py-1 text-right font-normal">
                    Reminders
                  </th>
                  <th scope="col" className="py-1 text-right font-normal">
                    Requests
                  </th>
                </tr>
              </thead>
              <tbody>
                {p.rows.map((r) => (
                  <tr key={r.projectId} className="border-t border-border">
                    <td className="py-1.5 pr-2">{r.clientName}</td>
                    <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                      <Link
                        to="/projects/$id"
                        params={{ id: r.projectId }}
                        className="underline-offset-2 hover:underline"
                      >
                        {r.projectName}
                      </Link>
                    </th>
                    <td className="py-1.5 pr-2 whitespace-nowrap">
                      {format.date(r.dueDate)} → {format.date(r.newDueDate)}
                    </td>
                    <td className="py-1.5 text-right tabular-nums">{format.number(r.tasks)}</td>
                    <td className="py-1.5 text-right tabular-nums">{format.number(r.reminders)}</td>
                    <td className="py-1.5 text-right tabular-nums">{format.number(r.requests)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {canTell && !p.extension.appliedAt ? (
              <section
                aria-label="Tell the affected clients"
                className="mt-4 flex flex-col gap-3 border-t border-border pt-3"
              >
                <Checkbox
                  label="Tell the affected clients"
                  checked={tell}
                  onCheckedChange={(on) => setTell(on === true)}
                />
                {tell ? (
                  <>
                    <p className="text-sm text-muted-fg">
                      A broadcast goes to the clients whose projects move; those with no email, unsubscribed
                      or bounced are left out, as for any broadcast.
                    </p>
                    {canTemplates ? (
                      <Field label="Message from">
                        <Select
                          value={templateId}
                          onValueChange={pickTemplate}
                          options={[
                            { value: DEFAULT_NOTICE, label: 'The extension notice' },
                            ...(templates.data?.rows ?? []).map((t) => ({ value: t.id, label: t.name })),
                          ]}
                        />
                      </Field>
                    ) : null}
                    <Field label="Subject" error={noticeErrors.subject} required>
                      <Input
                        value={message.subject}
                        onChange={(e) => setNotice({ ...message, subject: e.target.value })}
                      />
                    </Field>
                    <Field label="Message" error={noticeErrors.bodyHtml} required>
                      <RichTextEditor
                        key={templateId}
                        label="Message"
                        value={message.bodyHtml}
                        onChange={(html) => setNotice({ ...message, bodyHtml: html })}
                        invalid={!!noticeErrors.bodyHtml}
                      />
                    </Field>
                  </>
                ) : null}
              </section>
            ) : null}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
