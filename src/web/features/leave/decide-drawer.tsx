import { formatAmountWithUnit, HOLIDAY_PART_LABELS } from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, DrawerContent, Field, Skeleton, Textarea, toast, useFormat } from '@web/ui';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { LeaveAttachmentFile } from './leave-attachment';
import { LeaveDates, LeaveStatusBadge, levelOf, overAwayShare, type TTeamRequest } from './parts';

/** Deciding one request: what it is, who else is away and which holidays fall in it, and a comment. */
export function DecideDrawer({
  request,
  warnPercent,
  onClose,
}: {
  request: TTeamRequest | null;
  warnPercent: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  useEffect(() => {
    if (request) setComment('');
  }, [request]);
  const decide = useMutation(
    trpc.leave.requests.decide.mutationOptions({
      onSuccess: (_, { approve }) => {
        toast.success(approve ? 'Leave approved' : 'Leave rejected');
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  const send = (approve: boolean) =>
    request && decide.mutate({ requestId: request.id, approve, comment: comment.trim() || undefined });
  return (
    <Drawer open={request !== null} onOpenChange={(open) => !open && onClose()}>
      {request ? (
        <DrawerContent
          size="lg"
          title={`${request.memberName}: ${request.typeName}`}
          description={<LeaveDates {...request} />}
          footer={
            <>
              <Button
                variant="outline"
                loading={decide.isPending && decide.variables?.approve === false}
                disabled={decide.isPending}
                onClick={() => send(false)}
              >
                Reject
              </Button>
              <Button
                loading={decide.isPending && decide.variables?.approve === true}
                disabled={decide.isPending}
                onClick={() => send(true)}
              >
                Approve
              </Button>
            </>
          }
        >
          <div className="flex flex-col gap-5">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              <dt className="text-muted-fg">Deducts</dt>
              <dd>{formatAmountWithUnit(request.amount, request.unit)}</dd>
              <dt className="text-muted-fg">Reason</dt>
              <dd>{request.reason ?? '-'}</dd>
              <dt className="text-muted-fg">Approval</dt>
              <dd>{levelOf(request) ?? 'One approval'}</dd>
              <dt className="text-muted-fg">Attachment</dt>
              <dd>{request.attachment ? <LeaveAttachmentFile attachment={request.attachment} /> : 'None'}</dd>
            </dl>
            {overAwayShare(request, warnPercent) ? (
              <p
                role="alert"
                className="flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-50 p-3 text-amber-900 dark:bg-amber-400/10 dark:text-amber-200"
              >
                <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                {request.awayShare}% of the team would be away, more than the {warnPercent}% the firm allows.
              </p>
            ) : null}
            <AwayThen request={request} />
            <Field label="Comment" hint="The member reads it with the decision">
              <Textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
            </Field>
          </div>
        </DrawerContent>
      ) : null}
    </Drawer>
  );
}

/** The team's other leave and the holidays within the request's dates. */
function AwayThen({ request }: { request: TTeamRequest }) {
  const format = useFormat();
  const calendar = useQuery(
    trpc.leave.requests.calendar.queryOptions({ from: request.startDate, to: request.endDate }),
  );
  const others = calendar.data?.requests.filter((r) => r.id !== request.id) ?? [];
  const holidays = calendar.data?.holidays ?? [];
  return (
    <section aria-labelledby="away-then" className="flex flex-col gap-2">
      <h3 id="away-then" className="font-semibold">
        Also away on these dates
      </h3>
      {calendar.isPending ? (
        <Skeleton className="h-16" />
      ) : others.length === 0 && holidays.length === 0 ? (
        <p className="text-muted-fg">No one else in the team, and no holiday.</p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border">
          {holidays.map((h) => (
            <li
              key={`h-${h.date}-${h.office ?? ''}`}
              className="flex flex-wrap justify-between gap-2 px-3 py-2"
            >
              <span>
                <span className="font-medium">{h.name}</span>
                <span className="text-muted-fg">
                  {' '}
                  · Holiday{h.part !== 'full' ? ` (${HOLIDAY_PART_LABELS[h.part]})` : ''}
                  {h.office ? ` · ${h.office}` : ''}
                </span>
              </span>
              <time dateTime={h.date}>{format.date(h.date)}</time>
            </li>
          ))}
          {others.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span>
                <span className="font-medium">{r.memberName}</span>
                <span className="text-muted-fg"> · {r.typeName}</span> <LeaveStatusBadge status={r.status} />
              </span>
              <LeaveDates {...r} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
