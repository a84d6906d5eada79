import { CHANNEL_LABELS, RECURRENCE_LABELS, REMINDER_STATUS_LABELS } from '@domain/reminders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  confirm,
  Drawer,
  DrawerContent,
  Pagination,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { Ban, Pencil, Send } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { STATUS_TONES } from './format';
import { ReminderFormDialog } from './reminder-form-dialog';

const HISTORY_PAGE_SIZE = 20;

/** One reminder: what it is, who it reaches, and every delivery attempt, newest first. */
export function ReminderDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  return (
    <Drawer open={!!id} onOpenChange={(open) => (open ? null : onClose())}>
      {id ? <ReminderDetail id={id} /> : null}
    </Drawer>
  );
}

function ReminderDetail({ id }: { id: string }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const canEdit = useCan('reminders.edit');
  const canCancel = useCan('reminders.delete');
  const [editing, setEditing] = useState(false);
  const [page, setPage] = useState(1);
  const reminder = useQuery(trpc.reminders.get.queryOptions({ id }));
  const history = useQuery(trpc.reminders.deliveries.queryOptions({ id, page, pageSize: HISTORY_PAGE_SIZE }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.reminders.pathKey() });
  const sendNow = useMutation(
    trpc.reminders.sendNow.mutationOptions({
      onSuccess: async () => {
        toast.success('Sending it now');
        await refresh();
      },
    }),
  );
  const cancel = useMutation(
    trpc.reminders.cancel.mutationOptions({
      onSuccess: async () => {
        toast.success('Reminder cancelled');
        await refresh();
      },
    }),
  );
  const r = reminder.data;
  const live = r && r.status !== 'cancelled';
  return (
    <DrawerContent
      size="lg"
      title={r?.title ?? 'Reminder'}
      description={r ? `${r.type[0]?.toUpperCase()}${r.type.slice(1)} reminder` : undefined}
      footer={
        r && live ? (
          <>
            {canCancel ? (
              <Button
                variant="outline"
                loading={cancel.isPending}
                onClick={async () => {
                  if (
                    await confirm({
                      title: 'Cancel this reminder?',
                      message: 'Nothing more is sent. Its history stays.',
                      confirmLabel: 'Cancel reminder',
                      danger: true,
                    })
                  )
                    cancel.mutate({ id });
                }}
              >
                <Ban aria-hidden />
                Cancel reminder
              </Button>
            ) : null}
            {canEdit ? (
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden />
                Edit
              </Button>
            ) : null}
            {canEdit ? (
              <Button loading={sendNow.isPending} onClick={() => sendNow.mutate({ id })}>
                <Send aria-hidden />
                Send now
              </Button>
            ) : null}
          </>
        ) : undefined
      }
    >
      {!r ? (
        <div className="flex flex-col gap-2 p-5">
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-4 w-3/4" />
        </div>
      ) : (
        <div className="flex flex-col gap-5 p-5 text-sm">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2">
            <dt className="text-muted-fg">Status</dt>
            <dd className="flex flex-col gap-1">
              <span>
                <Badge tone={STATUS_TONES[r.status]} dot data-testid="reminder-status">
                  {REMINDER_STATUS_LABELS[r.status]}
                </Badge>
              </span>
              {r.lastError ? <span className="text-danger">{r.lastError}</span> : null}
            </dd>
            <dt className="text-muted-fg">{r.status === 'scheduled' ? 'Next send' : 'Send time'}</dt>
            <dd>{format.dateTime(r.remindAt)}</dd>
            <dt className="text-muted-fg">Repeats</dt>
            <dd>{RECURRENCE_LABELS[r.recurrence]}</dd>
            <dt className="text-muted-fg">Channels</dt>
            <dd>{r.channels.map((c) => CHANNEL_LABELS[c]).join(', ')}</dd>
            {r.client ? (
              <>
                <dt className="text-muted-fg">Client</dt>
                <dd>
                  {r.client.name}
                  {r.client.email ? <span className="text-muted-fg"> · {r.client.email}</span> : null}
                </dd>
              </>
            ) : null}
            {r.project ? (
              <>
                <dt className="text-muted-fg">Project</dt>
                <dd>{r.project.name}</dd>
              </>
            ) : null}
            {r.task ? (
              <>
                <dt className="text-muted-fg">Task</dt>
                <dd>{r.task.title}</dd>
              </>
            ) : null}
            {r.itemName ? (
              <>
                <dt className="text-muted-fg">Item</dt>
                <dd>
                  {r.itemName} · expires {format.date(r.expiryDate)} · reminded {r.daysBefore} days before
                </dd>
              </>
            ) : null}
            {r.members.length ? (
              <>
                <dt className="text-muted-fg">{r.type === 'expiry' ? 'Responsible' : 'Members'}</dt>
                <dd>{r.members.map((m) => m.name).join(', ')}</dd>
              </>
            ) : null}
          </dl>
          {r.message ? <p className="whitespace-pre-wrap rounded-md bg-muted/40 p-3">{r.message}</p> : null}
          <section aria-labelledby="reminder-history" className="flex flex-col gap-2">
            <h3 id="reminder-history" className="font-semibold">
              History
            </h3>
            {history.isPending ? (
              <Skeleton className="h-16 w-full" />
            ) : history.data?.rows.length ? (
              <>
                <ul className="flex flex-col divide-y divide-border rounded-md border border-border">
                  {history.data.rows.map((d) => (
                    <li key={d.id} className="flex flex-col gap-0.5 px-3 py-2">
                      <span className="flex flex-wrap items-center gap-2">
                        <Badge tone={d.status === 'sent' ? 'green' : 'red'}>
                          {d.status === 'sent' ? 'Delivered' : 'Refused'}
                        </Badge>
                        <span>{d.recipient}</span>
                        <span className="text-muted-fg">
                          {CHANNEL_LABELS[d.channel]} · attempt {d.attempt}
                        </span>
                      </span>
                      <time className="text-xs text-muted-fg" dateTime={d.sentAt.toISOString()}>
                        {format.dateTime(d.sentAt)}
                      </time>
                      {d.error ? <span className="text-xs text-danger">{d.error}</span> : null}
                    </li>
                  ))}
                </ul>
                {history.data.total > HISTORY_PAGE_SIZE ? (
                  <Pagination
                    page={page}
                    pageSize={HISTORY_PAGE_SIZE}
                    total={history.data.total}
                    onPageChange={setPage}
                  />
                ) : null}
              </>
            ) : (
              <p className="text-muted-fg">Nothing sent yet.</p>
            )}
          </section>
          {editing ? (
            <ReminderFormDialog open={editing} onOpenChange={setEditing} type={r.type} reminder={r} />
          ) : null}
        </div>
      )}
    </DrawerContent>
  );
}
