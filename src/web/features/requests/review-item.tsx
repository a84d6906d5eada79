import { isPreviewable } from '@domain/documents';
import { ITEM_KIND_LABELS, requestFilePath } from '@domain/requests/constants';
import { ZItemReview } from '@domain/requests/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { Badge, Button, Field, Textarea, toast, useFormat } from '@web/ui';
import { Check, Download, Eye, FolderCheck, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { saveFile, signedLink } from '../documents/file-transfer';

export type TRequestDetail = inferRouterOutputs<AppRouter>['requests']['get'];
type TItem = TRequestDetail['items'][number];

const REVIEW_BADGES = {
  pending: null,
  accepted: <Badge tone="green">Accepted</Badge>,
  returned: <Badge tone="yellow">Returned</Badge>,
} as const;

/** The client's answer as the firm reads it, in the firm's formats. */
function Answer({ item }: { item: TItem }) {
  const format = useFormat();
  const v = item.value;
  if (item.kind === 'file') return null;
  if (v === null || v === '') return <p className="text-muted-fg">No answer yet</p>;
  const text =
    item.kind === 'yes_no'
      ? v === 'yes'
        ? 'Yes'
        : 'No'
      : item.kind === 'acknowledgement'
        ? 'Acknowledged'
        : item.kind === 'amount' && typeof v === 'number'
          ? format.moneyMinor(v)
          : item.kind === 'number' && typeof v === 'number'
            ? format.number(v)
            : item.kind === 'date' && typeof v === 'string'
              ? format.date(v)
              : String(v);
  return <p className="whitespace-pre-wrap break-words">{text}</p>;
}

/** One item of a request under review: the answer, the files, and the firm's accept or return. */
export function ReviewItem({
  requestId,
  item,
  number,
  reviewable,
  filing,
}: {
  requestId: string;
  item: TItem;
  number: number;
  reviewable: boolean;
  /** Where accepted files are filed: the client's documents folder of the request, once made. */
  filing: { clientId: string; folderId: string | null };
}) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const [returning, setReturning] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const review = useMutation(
    trpc.requests.review.mutationOptions({
      onSuccess: async (result) => {
        toast.success(
          result.review === 'accepted' ? `Accepted ${item.label}` : `Returned ${item.label} to the client`,
          result.filed
            ? {
                description: `${result.filed.files.length} file${result.filed.files.length === 1 ? '' : 's'} filed in “${result.filed.folderName}”${result.filed.shared ? ', shared with the client' : ''}`,
              }
            : undefined,
        );
        setReturning(false);
        setReason('');
        await queryClient.invalidateQueries({ queryKey: trpc.requests.pathKey() });
      },
    }),
  );
  // A tab of its own: the server serves the preview locked down (no script, sandboxed).
  const view = async (fileId: string) => {
    const tab = window.open('', '_blank');
    try {
      const url = await signedLink(requestFilePath(fileId, 'preview'));
      if (tab) tab.location.href = url;
    } catch (e) {
      tab?.close();
      toast.error(e instanceof Error ? e.message : 'Network Error');
    }
  };
  const answered =
    item.notApplicableReason !== null || item.files.length > 0 || (item.value !== null && item.value !== '');
  const sendBack = () => {
    const parsed = ZItemReview.safeParse({ requestId, itemId: item.id, decision: 'returned', reason });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message);
      return;
    }
    review.mutate(parsed.data);
  };
  return (
    <li className="flex flex-col gap-2 border-t border-border py-4 first:border-t-0" aria-label={item.label}>
      <div className="flex flex-wrap items-start gap-2">
        <span className="w-6 shrink-0 text-xs text-muted-fg tabular-nums">{number}.</span>
        <div className="min-w-0 flex-1">
          <p className="font-medium">{item.label}</p>
          <p className="text-xs text-muted-fg">
            {ITEM_KIND_LABELS[item.kind]}
            {item.required ? '' : ' · optional'}
            {item.hint ? ` · ${item.hint}` : ''}
          </p>
        </div>
        {REVIEW_BADGES[item.review]}
      </div>
      <div className="flex flex-col gap-2 pl-8 text-sm">
        {item.notApplicableReason !== null ? (
          <p>
            <Badge tone="grey">Not applicable</Badge> <span className="ml-1">{item.notApplicableReason}</span>
          </p>
        ) : (
          <Answer item={item} />
        )}
        {item.kind === 'file' && item.notApplicableReason === null ? (
          item.files.length ? (
            <ul className="flex flex-col gap-1" aria-label={`Files for ${item.label}`}>
              {item.files.map((f) => (
                <li key={f.id} className="flex flex-wrap items-center gap-2">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Download ${f.name}`}
                    onClick={() =>
                      saveFile(requestFilePath(f.id), f.name).catch((e: unknown) =>
                        toast.error(e instanceof Error ? e.message : 'Network Error'),
                      )
                    }
                  >
                    <Download aria-hidden /> {f.name}
                  </Button>
                  {isPreviewable(f.contentType) ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`View ${f.name}`}
                      onClick={() => void view(f.id)}
                    >
                      <Eye aria-hidden /> View
                    </Button>
                  ) : null}
                  <span className="text-xs text-muted-fg">{format.bytes(f.size)}</span>
                  {f.documentId && filing.folderId ? (
                    <Link
                      to="/clients/$id/documents/$folderId"
                      params={{ id: filing.clientId, folderId: filing.folderId }}
                      className="inline-flex items-center gap-1 text-xs underline"
                    >
                      <FolderCheck aria-hidden className="size-3.5" /> Filed in documents
                    </Link>
                  ) : (
                    <span className="text-xs text-muted-fg">Held with the item until accepted</span>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-fg">No files yet</p>
          )
        ) : null}
        {item.review === 'returned' && item.returnReason ? (
          <p className="text-danger">Returned: {item.returnReason}</p>
        ) : null}
        {reviewable && answered && item.review !== 'accepted' && !returning ? (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              loading={review.isPending}
              onClick={() => review.mutate({ requestId, itemId: item.id, decision: 'accepted' })}
            >
              <Check aria-hidden /> Accept
            </Button>
            {item.review !== 'returned' ? (
              <Button size="sm" variant="outline" onClick={() => setReturning(true)}>
                <Undo2 aria-hidden /> Return
              </Button>
            ) : null}
          </div>
        ) : null}
        {returning ? (
          <div className="flex flex-col gap-2">
            <Field label="What should the client fix?" required error={reasonError}>
              <Textarea autoFocus rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
            </Field>
            <div className="flex gap-2">
              <Button size="sm" loading={review.isPending} onClick={sendBack}>
                Return to client
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setReturning(false)}>
                Cancel
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </li>
  );
}
