import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Dialog, DialogClose, DialogContent, toast, useFormat } from '@web/ui';
import { BellRing, CircleAlert, Pause, Play } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { ChaseFields, parseChaseDraft, toChaseDraft } from './chase-fields';
import type { TRequestDetail } from './review-item';

type TChase = TRequestDetail['chase'];

const WAITING = ['sent', 'in_progress', 'returned'];
const DELIVERY: Record<string, { label: string; tone: 'green' | 'blue' | 'red' }> = {
  sent: { label: 'Delivered', tone: 'green' },
  queued: { label: 'Queued', tone: 'blue' },
  failed: { label: 'Failed', tone: 'red' },
};

/** A request's reminders: its schedule, those sent (with their delivery) and the next, paused or not. */
export function RequestChasePanel({ request, canManage }: { request: TRequestDetail; canManage: boolean }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const chase = request.chase;
  const open = request.status !== 'complete' && request.status !== 'cancelled';
  const update = useMutation(
    trpc.requests.updateChase.mutationOptions({
      onSuccess: async (_r, sent) => {
        toast.success(sent.paused ? 'Reminders paused' : 'Reminders on');
        await queryClient.invalidateQueries({
          queryKey: trpc.requests.get.queryKey({ requestId: request.id }),
        });
      },
    }),
  );
  const next = nextText(request, chase, format.date);
  return (
    <Card aria-labelledby="chase-title" className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h2 id="chase-title" className="flex items-center gap-2 font-semibold">
            <BellRing aria-hidden className="size-4" /> Reminders
            {chase.paused ? <Badge tone="grey">Paused</Badge> : null}
          </h2>
          <p className="text-sm">{chase.summary}, until the client submits.</p>
          <p className="text-sm text-muted-fg">{next}</p>
        </div>
        {canManage && open ? (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              loading={update.isPending}
              onClick={() =>
                update.mutate({ requestId: request.id, schedule: chase.schedule, paused: !chase.paused })
              }
            >
              {chase.paused ? <Play aria-hidden /> : <Pause aria-hidden />}
              {chase.paused ? 'Resume reminders' : 'Pause reminders'}
            </Button>
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              Change schedule
            </Button>
          </div>
        ) : null}
      </div>
      {chase.needsAttentionAt ? (
        <p
          role="status"
          className="flex items-center gap-2 rounded-md bg-red-50 p-2 text-sm text-red-800 dark:bg-red-500/15 dark:text-red-200"
        >
          <CircleAlert aria-hidden className="size-4 shrink-0" />
          Needs attention since {format.date(chase.needsAttentionAt)}: the client has not answered the
          reminders. Call them, or change the due date.
        </p>
      ) : null}
      {chase.sent.length ? (
        <table className="w-full text-sm">
          <caption className="sr-only">Reminders sent</caption>
          <thead className="text-left text-xs text-muted-fg">
            <tr>
              <th scope="col" className="py-1 font-normal">
                Reminder
              </th>
              <th scope="col" className="py-1 font-normal">
                Sent
              </th>
              <th scope="col" className="py-1 font-normal">
                Delivery
              </th>
            </tr>
          </thead>
          <tbody>
            {chase.sent.map((s) => {
              const d = DELIVERY[s.delivery] ?? { label: s.delivery, tone: 'blue' as const };
              return (
                <tr key={s.step} className="border-t border-border">
                  <td className="py-1.5">{s.label}</td>
                  <td className="py-1.5">{format.dateTime(s.sentAt)}</td>
                  <td className="py-1.5">
                    <Badge tone={d.tone} title={s.error ?? undefined}>
                      {d.label}
                    </Badge>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-muted-fg">No reminders sent yet.</p>
      )}
      <ChaseDialog key={String(editing)} request={request} open={editing} onOpenChange={setEditing} />
    </Card>
  );
}

function nextText(request: TRequestDetail, chase: TChase, date: (d: string) => string) {
  if (request.status === 'draft') return 'Reminders start once the request is sent.';
  if (!WAITING.includes(request.status))
    return request.status === 'submitted'
      ? 'Stopped: the client has submitted.'
      : 'Stopped: the request is closed.';
  if (chase.paused) return 'Paused: no reminders go until they are resumed.';
  return chase.nextDay ? `Next reminder on ${date(chase.nextDay)}.` : 'No more reminders on this schedule.';
}

function ChaseDialog({
  request,
  open,
  onOpenChange,
}: {
  request: TRequestDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => toChaseDraft(request.chase.schedule));
  const [tried, setTried] = useState(false);
  const { schedule, errors } = parseChaseDraft(draft);
  const save = useMutation(
    trpc.requests.updateChase.mutationOptions({
      onSuccess: async ({ changed }) => {
        toast.success(changed ? 'Reminder schedule saved' : 'Nothing to save: no changes');
        onOpenChange(false);
        await queryClient.invalidateQueries({
          queryKey: trpc.requests.get.queryKey({ requestId: request.id }),
        });
      },
    }),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="lg"
        title="Reminder schedule"
        description="When this request's client is reminded, counted from its due date. Each reminder goes once."
      >
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (!schedule) return;
            save.mutate({ requestId: request.id, schedule, paused: request.chase.paused });
          }}
        >
          <ChaseFields
            value={draft}
            onChange={setDraft}
            errors={tried ? errors : new Map()}
            idPrefix="request-chase"
          />
          <div className="flex justify-end gap-2 border-t border-border pt-4">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" loading={save.isPending}>
              Save schedule
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
