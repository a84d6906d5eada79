import {
  BROADCAST_MODE_LABELS,
  BROADCAST_MODES,
  BROADCAST_NAME_MAX,
  defaultBroadcastName,
  EXCLUDED_REASON_LABELS,
  type TBroadcastMode,
  type TExcludedReason,
  ZBroadcastContent,
} from '@domain/broadcasts';
import { todayIn } from '@domain/days';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  confirm,
  DateTimePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  toast,
  useDebounced,
  useFormat,
} from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { AudienceFields, type TAudienceDraft } from './audience-fields';
import { MessagePreview } from './message-preview';
import { RichTextEditor } from './rich-text-editor';

const NONE = 'none';

/**
 * A new broadcast: from a template or written here; its audience with the count, who is left out
 * and why, and a preview per recipient; a test to myself; send now or at a time.
 */
export function NewBroadcastDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (id: string) => void;
}) {
  const fmt = useFormat();
  const canSend = useCan('broadcasts.send');
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<string>(NONE);
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [bodyHtml, setBodyHtml] = useState('');
  const [audience, setAudience] = useState<TAudienceDraft>({});
  const [mode, setMode] = useState<TBroadcastMode>('client');
  const [sendAt, setSendAt] = useState<Date | null>(null);
  const [previewClient, setPreviewClient] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ subject?: string; bodyHtml?: string }>({});
  useEffect(() => {
    if (!open) return;
    setTemplateId(NONE);
    setName('');
    setSubject('');
    setBodyHtml('');
    setAudience({});
    setMode('client');
    setSendAt(null);
    setErrors({});
  }, [open]);
  const templates = useQuery({
    ...trpc.broadcastTemplates.list.queryOptions({ pageSize: 200 }),
    enabled: open,
  });
  const summaryInput = useDebounced({ audience, mode });
  const summary = useQuery({
    ...trpc.broadcasts.audience.queryOptions(summaryInput),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const sample = summary.data?.sample ?? [];
  const previewFor =
    previewClient && sample.some((s) => s.clientId === previewClient)
      ? previewClient
      : (sample[0]?.clientId ?? null);

  const pickTemplate = (id: string) => {
    setTemplateId(id);
    const t = templates.data?.rows.find((r) => r.id === id);
    if (t) {
      setName(t.name);
      setSubject(t.subject);
      setBodyHtml(t.bodyHtml);
    }
  };
  const valid = () => {
    const parsed = ZBroadcastContent.safeParse({ subject, bodyHtml });
    if (parsed.success) {
      setErrors({});
      return true;
    }
    const next: typeof errors = {};
    for (const issue of parsed.error.issues) next[issue.path[0] as 'subject' | 'bodyHtml'] ??= issue.message;
    setErrors(next);
    return false;
  };
  const test = useMutation(
    trpc.broadcasts.testSend.mutationOptions({ onSuccess: ({ to }) => toast.success(`Test sent to ${to}`) }),
  );
  const create = useMutation(
    trpc.broadcasts.create.mutationOptions({
      onSuccess: async (b) => {
        toast.success(
          b.queueing
            ? `${b.status === 'scheduled' ? 'Scheduled' : 'Sending'}: queueing its recipients`
            : b.status === 'scheduled'
              ? `Scheduled for ${fmt.number(b.recipients)} recipients`
              : `Sending to ${fmt.number(b.recipients)} recipients`,
        );
        onOpenChange(false);
        await queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
        onCreated(b.id);
      },
    }),
  );
  const send = async () => {
    if (!valid()) return;
    const when = sendAt;
    const n = summary.data?.recipients ?? 0;
    const ok = await confirm({
      title: when ? `Schedule this broadcast?` : `Send this broadcast now?`,
      message: `${fmt.number(n)} recipient${n === 1 ? '' : 's'} will get it${when ? ` on ${fmt.dateTime(when)} (${fmt.timeZone} time)` : ''}.`,
      confirmLabel: when ? 'Schedule' : 'Send now',
    });
    if (!ok) return;
    create.mutate({
      name: name.trim() || undefined,
      subject,
      bodyHtml,
      audience,
      mode,
      templateId: templateId === NONE ? null : templateId,
      sendAt: when,
    });
  };
  const excluded = summary.data?.excluded;
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="xl"
        title="New broadcast"
        description="One mail per recipient, personal to each, every delivery kept with its state."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="outline"
              loading={test.isPending}
              onClick={() => valid() && test.mutate({ subject, bodyHtml, clientId: previewFor })}
            >
              Send a test to me
            </Button>
            {canSend ? (
              <Button loading={create.isPending} disabled={!summary.data?.recipients} onClick={send}>
                {sendAt ? 'Schedule' : 'Send now'}
              </Button>
            ) : null}
          </>
        }
      >
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="flex flex-col gap-4">
            <Field label="Start from a template">
              <Select
                value={templateId}
                onValueChange={pickTemplate}
                options={[
                  { value: NONE, label: 'Write a new message' },
                  ...(templates.data?.rows ?? []).map((t) => ({ value: t.id, label: t.name })),
                ]}
              />
            </Field>
            <Field label="Name" hint="What the list of broadcasts calls it; clients never see it.">
              <Input
                value={name}
                maxLength={BROADCAST_NAME_MAX}
                onChange={(e) => setName(e.target.value)}
                placeholder={defaultBroadcastName(subject)}
              />
            </Field>
            <Field label="Subject" error={errors.subject} required>
              <Input
                value={subject}
                onChange={(e) => setSubject(e.target.value)}
                placeholder="{{client_name}}: what we need this season"
              />
            </Field>
            <Field label="Message" error={errors.bodyHtml} required>
              <RichTextEditor
                label="Message"
                value={bodyHtml}
                onChange={setBodyHtml}
                invalid={!!errors.bodyHtml}
              />
            </Field>
            <Field label="Send at" hint="Leave empty to send now.">
              <DateTimePicker value={sendAt} onChange={setSendAt} min={todayIn(fmt.timeZone)} />
            </Field>
          </div>
          <div className="flex flex-col gap-4">
            <AudienceFields value={audience} onChange={setAudience} />
            <Field label="Recipients">
              <Select
                value={mode}
                onValueChange={(v) => setMode(v as TBroadcastMode)}
                options={BROADCAST_MODES.map((m) => ({ value: m, label: BROADCAST_MODE_LABELS[m] }))}
              />
            </Field>
            <section aria-label="Audience" className="rounded-md border border-border p-3 text-sm">
              <p className="font-medium" data-testid="audience-count">
                {summary.data ? `${fmt.number(summary.data.recipients)} recipients` : 'Counting…'}
              </p>
              {excluded ? (
                <ul className="mt-1 text-muted-fg">
                  {(Object.keys(excluded) as TExcludedReason[])
                    .filter((r) => excluded[r] > 0)
                    .map((r) => (
                      <li key={r}>
                        Left out, {EXCLUDED_REASON_LABELS[r].toLowerCase()}: {fmt.number(excluded[r])}
                      </li>
                    ))}
                </ul>
              ) : null}
              {summary.data?.left.length ? (
                <details className="mt-2">
                  <summary className="cursor-pointer">Who is left out</summary>
                  <ul className="mt-1 max-h-32 overflow-y-auto">
                    {summary.data.left.map((l) => (
                      <li key={`${l.clientId}-${l.email}`}>
                        {l.clientName}
                        {l.email ? ` <${l.email}>` : ''}: {EXCLUDED_REASON_LABELS[l.reason]}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </section>
            {sample.length ? (
              <>
                <Field label="Preview for">
                  <Select
                    value={previewFor ?? undefined}
                    onValueChange={setPreviewClient}
                    options={sample
                      .filter((s, i, all) => all.findIndex((x) => x.clientId === s.clientId) === i)
                      .map((s) => ({
                        value: s.clientId,
                        label: `${s.clientName} <${s.email}>${s.cc.length ? ` +${s.cc.length} in copy` : ''}`,
                      }))}
                  />
                </Field>
                <MessagePreview
                  subject={subject}
                  bodyHtml={bodyHtml}
                  clientId={previewFor}
                  via="broadcasts"
                />
              </>
            ) : null}
          </div>
        </div>
      </DialogContent>
    </DialogRoot>
  );
}
