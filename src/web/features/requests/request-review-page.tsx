import { ZRequestCancel } from '@domain/requests/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Button,
  Card,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  PageHeader,
  Spinner,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { Ban, CheckCheck, Pencil, Send } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { RequestChasePanel } from './request-chase-panel';
import { RequestDraftEditDialog } from './request-draft-edit-dialog';
import { RequestProgress, RequestStatusBadge } from './request-status-badge';
import { ReviewItem, type TRequestDetail } from './review-item';

const route = getRouteApi('/_main/requests/$id');

/** The states staff still review items in (the server's rule). */
const REVIEWABLE = ['in_progress', 'submitted', 'returned'];
const COMPLETABLE = ['sent', 'in_progress', 'submitted', 'returned'];

/** /requests/{id}: every answer and file of a request in one place, reviewed item by item. */
export function RequestReviewPage() {
  if (!useCan('requests.view')) return <NoAccess message="Your role does not include client requests." />;
  return <RequestScreen />;
}

function RequestScreen() {
  const { id } = route.useParams();
  const detail = useQuery(trpc.requests.get.queryOptions({ requestId: id }));
  if (detail.error?.data?.code === 'NOT_FOUND')
    return <RecordNotFound thing="request" back={{ to: '/requests', label: 'Back to requests' }} />;
  if (detail.error) throw detail.error;
  if (!detail.data) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  return <RequestReview request={detail.data} />;
}

function RequestReview({ request }: { request: TRequestDetail }) {
  const format = useFormat();
  const canManage = useCan('requests.manage');
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const [editing, setEditing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.requests.pathKey() });
  const complete = useMutation(
    trpc.requests.complete.mutationOptions({
      onSuccess: async () => {
        toast.success('Request complete');
        await refresh();
      },
    }),
  );
  const send = useMutation(
    trpc.requests.send.mutationOptions({
      onSuccess: async () => {
        toast.success('Request sent');
        await refresh();
      },
    }),
  );
  const reviewable = canManage && REVIEWABLE.includes(request.status);
  const shown = request.items.filter((i) => i.shown);
  const hidden = request.items.length - shown.length;
  const sections = [...new Set(shown.map((i) => i.section))];
  let number = 0;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Requests', to: '/requests' }, { label: request.title }]}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {request.title}
            <RequestStatusBadge status={request.displayStatus} />
          </span>
        }
        description={
          <>
            <Link to="/clients/$id/requests" params={{ id: request.client.id }} className="underline">
              {request.client.name}
            </Link>
            {' · '}due {format.date(request.dueDate)}
          </>
        }
        actions={
          canManage ? (
            <>
              {request.status === 'draft' ? (
                <>
                  <Button variant="outline" onClick={() => setEditing(true)}>
                    <Pencil aria-hidden /> Edit draft
                  </Button>
                  <Button loading={send.isPending} onClick={() => send.mutate({ requestId: request.id })}>
                    <Send aria-hidden /> Send
                  </Button>
                </>
              ) : null}
              {COMPLETABLE.includes(request.status) ? (
                <Button
                  loading={complete.isPending}
                  onClick={() => complete.mutate({ requestId: request.id })}
                >
                  <CheckCheck aria-hidden /> Complete
                </Button>
              ) : null}
              {request.status !== 'complete' && request.status !== 'cancelled' ? (
                <Button variant="outline" onClick={() => setCancelling(true)}>
                  <Ban aria-hidden /> Cancel request
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      <CancelDialog requestId={request.id} open={cancelling} onOpenChange={setCancelling} />
      {request.status === 'draft' ? (
        <RequestDraftEditDialog request={request} open={editing} onOpenChange={setEditing} />
      ) : null}
      <Card className="grid gap-4 p-4 sm:grid-cols-3">
        <div>
          <p className="text-xs text-muted-fg">Done</p>
          <RequestProgress done={request.progress.done} total={request.progress.total} />
        </div>
        <div>
          <p className="text-xs text-muted-fg">Sent to</p>
          <p className="text-sm">{request.recipients.map((r) => r.name).join(', ') || '—'}</p>
        </div>
        <div>
          <p className="text-xs text-muted-fg">Sent by</p>
          <p className="text-sm">
            {request.sentBy ?? '—'}
            {request.sentAt ? ` · ${format.date(request.sentAt)}` : ''}
          </p>
        </div>
        {request.message ? (
          <div className="sm:col-span-3">
            <p className="text-xs text-muted-fg">Message</p>
            <p className="text-sm whitespace-pre-wrap">{request.message}</p>
          </div>
        ) : null}
      </Card>
      <RequestChasePanel request={request} canManage={canManage} />
      {sections.map((section) => (
        <Card key={section || 'untitled'} className="px-4 py-2">
          {section ? <h2 className="pt-2 font-semibold">{section}</h2> : null}
          <ol>
            {shown
              .filter((i) => i.section === section)
              .map((item) => {
                number += 1;
                return (
                  <ReviewItem
                    key={item.id}
                    requestId={request.id}
                    item={item}
                    number={number}
                    reviewable={reviewable}
                    filing={{ clientId: request.client.id, folderId: request.folderId }}
                  />
                );
              })}
          </ol>
        </Card>
      ))}
      {hidden ? (
        <p className="text-sm text-muted-fg">
          {hidden} item{hidden === 1 ? ' is' : 's are'} not shown to the client: the answers they depend on do
          not call for them.
        </p>
      ) : null}
    </div>
  );
}

function CancelDialog({
  requestId,
  open,
  onOpenChange,
}: {
  requestId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const cancel = useMutation(
    trpc.requests.cancel.mutationOptions({
      onSuccess: async () => {
        toast.success('Request cancelled');
        onOpenChange(false);
        await queryClient.invalidateQueries({ queryKey: trpc.requests.pathKey() });
      },
    }),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="sm"
        title="Cancel this request?"
        description="The client will no longer be asked for it. What they already sent stays."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Keep it</Button>
            </DialogClose>
            <Button
              variant="danger"
              loading={cancel.isPending}
              onClick={() => cancel.mutate(ZRequestCancel.parse({ requestId, reason }))}
            >
              Cancel request
            </Button>
          </>
        }
      >
        <Field label="Reason" hint="For the firm's records">
          <Textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
      </DialogContent>
    </Dialog>
  );
}
