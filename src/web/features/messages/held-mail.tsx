import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, toast, useFormat } from '@web/ui';
import { ShieldAlert } from 'lucide-react';
import { trpc } from '../../lib/trpc';

const REASONS: Record<string, string> = {
  not_participant: 'The sender is not on this conversation',
  bad_token: 'The address was altered or is not ours',
  not_member: 'The sender is neither of the firm nor of this client',
  empty: 'The reply had no text of its own',
};

/** Mail that came in and was not posted: the firm looks at it and discards it (it is never posted by itself). */
export function HeldMail() {
  const held = useQuery(trpc.messages.held.queryOptions());
  const format = useFormat();
  const queryClient = useQueryClient();
  const discard = useMutation(
    trpc.messages.discardHeld.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.messages.held.queryKey() }),
      onError: (e) => toast.error(e.message),
    }),
  );
  if (!held.data?.length) return null;
  return (
    <details className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950/30">
      <summary className="flex cursor-pointer items-center gap-2 font-medium">
        <ShieldAlert aria-hidden className="size-4" />
        {held.data.length} mail{held.data.length === 1 ? '' : 's'} held for review
      </summary>
      <ul aria-label="Held mail" className="mt-2 flex flex-col gap-2">
        {held.data.map((h) => (
          <li key={h.id} className="flex flex-col gap-1 rounded border border-border bg-surface p-2">
            <p className="flex flex-wrap gap-x-2 text-xs text-muted-fg">
              <span className="font-medium text-fg">{h.fromAddress}</span>
              {h.clientName ? <span>for {h.clientName}</span> : null}
              <span>{format.dateTime(h.createdAt)}</span>
            </p>
            <p className="font-medium">{h.subject || '(no subject)'}</p>
            <p className="line-clamp-3 whitespace-pre-wrap break-words text-xs">{h.body}</p>
            {h.attachmentNames.length ? (
              <p className="text-xs text-muted-fg">Files: {h.attachmentNames.join(', ')}</p>
            ) : null}
            <div className="flex items-center justify-between gap-2">
              <span className="text-xs text-muted-fg">{REASONS[h.reason] ?? h.reason}</span>
              <Button
                size="sm"
                variant="outline"
                disabled={discard.isPending}
                onClick={() => discard.mutate({ heldId: h.id })}
              >
                Discard
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </details>
  );
}
