import { addDays, todayIn } from '@domain/days';
import { ZRequestBulkSend } from '@domain/requests/flow';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Button,
  DatePicker,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  Input,
  Select,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';

type TResult = inferRouterOutputs<AppRouter>['requests']['sendBulk'];
/** Two weeks, as a single request starts with. */
const DEFAULT_DAYS = 14;

/**
 * The client list's bulk bar: one request per selected client from a template, each to that
 * client's portal users. Clients nobody uses the portal for are listed afterwards with a way to
 * invite someone.
 */
export function BulkSendRequest({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  if (!useCan('requests.manage')) return null;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <ClipboardList aria-hidden /> Send request
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title={`Send a request to ${ids.length} client${ids.length === 1 ? '' : 's'}`}
          description="Each client gets its own request from the template, sent to everyone who uses the portal for it."
        >
          {open ? (
            <BulkSendForm
              ids={ids}
              onSent={(result) => {
                if (!result.skipped.length) {
                  setOpen(false);
                  onDone();
                }
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function BulkSendForm({ ids, onSent }: { ids: string[]; onSent: (result: TResult) => void }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const templates = useQuery(trpc.requests.templates.list.queryOptions());
  const [templateId, setTemplateId] = useState('');
  const [title, setTitle] = useState('');
  const [dueDate, setDueDate] = useState(() => addDays(todayIn(format.timeZone), DEFAULT_DAYS));
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const [result, setResult] = useState<TResult | null>(null);
  const parsed = ZRequestBulkSend.safeParse({ clientIds: ids, templateId, title, dueDate, message });
  const errors = new Map<string, string>();
  if (tried && !parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (!errors.has(key)) errors.set(key, issue.message);
    }
  }
  const send = useMutation(
    trpc.requests.sendBulk.mutationOptions({
      onSuccess: async (sent) => {
        const n = sent.sent.length;
        toast.success(
          `Request sent to ${n} client${n === 1 ? '' : 's'}${sent.skipped.length ? `, ${sent.skipped.length} skipped` : ''}`,
        );
        setResult(sent);
        await queryClient.invalidateQueries({ queryKey: trpc.requests.pathKey() });
        onSent(sent);
      },
    }),
  );

  if (result) {
    return (
      <div className="flex flex-col gap-3 text-sm">
        <p role="status">
          Sent to {result.sent.length} client{result.sent.length === 1 ? '' : 's'}. {result.skipped.length}{' '}
          skipped:
        </p>
        <ul
          aria-label="Skipped clients"
          className="flex flex-col divide-y divide-border rounded-md border border-border"
        >
          {result.skipped.map((s) => (
            <li key={s.clientId} className="flex flex-wrap items-center justify-between gap-2 p-2">
              <span>
                <span className="font-medium">{s.clientName}</span>
                <span className="block text-xs text-muted-fg">{s.message}</span>
              </span>
              <Link
                to="/clients/$id/client-users"
                params={{ id: s.clientId }}
                className="text-primary underline"
              >
                Invite a portal user
              </Link>
            </li>
          ))}
        </ul>
        <div className="flex justify-end">
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </div>
      </div>
    );
  }

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!parsed.success) {
          toast.error('Some fields need attention');
          return;
        }
        send.mutate(parsed.data);
      }}
    >
      <Field label="Template" required error={errors.get('templateId')}>
        <Select
          placeholder={templates.isPending ? 'Loading templates…' : 'Choose a template'}
          options={(templates.data ?? []).map((t) => ({
            value: t.id,
            label: `${t.name} (${t.itemCount} items)`,
          }))}
          value={templateId}
          onValueChange={setTemplateId}
        />
      </Field>
      {templates.data && templates.data.length === 0 ? (
        <p className="text-sm text-muted-fg">
          No request templates yet.{' '}
          <Link to="/admin/templates/requests" className="text-primary underline">
            Make one
          </Link>{' '}
          first.
        </p>
      ) : null}
      <Field label="Title" hint="The template’s name when left empty" error={errors.get('title')}>
        <Input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field label="Due date" required error={errors.get('dueDate')}>
        <DatePicker value={dueDate} clearable={false} onChange={(v) => setDueDate(v ?? '')} />
      </Field>
      <Field label="Message" hint="Mailed with each request's link" error={errors.get('message')}>
        <Textarea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      {errors.get('clientIds') ? <p className="text-sm text-danger">{errors.get('clientIds')}</p> : null}
      <div className="flex flex-wrap justify-end gap-2 border-t border-border pt-4">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={send.isPending}>
          Send to {ids.length} client{ids.length === 1 ? '' : 's'}
        </Button>
      </div>
    </form>
  );
}
