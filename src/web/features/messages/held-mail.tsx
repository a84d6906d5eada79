import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Select, toast, useFormat } from '@web/ui';
import { Paperclip, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { ClientPicker } from '../projects/client-picker';
import { useCan } from '../shell/access';

const REASONS: Record<string, string> = {
  not_participant: 'The sender is not on this conversation',
  bad_token: 'The address was altered or is not ours',
  not_member: 'The sender is neither of the firm nor of this client',
  empty: 'The reply had no text of its own',
};
const NEW_THREAD = 'new';

type THeld = {
  id: string;
  threadId: string | null;
  clientId: string | null;
  clientName: string | null;
  fromAddress: string;
  subject: string;
  body: string;
  reason: string;
  attachmentNames: string[];
  files: { name: string; size: number }[];
  createdAt: Date | string;
};

/**
 * Mail that came in and was not posted: the firm looks at it and releases it into a conversation of
 * its choice (or a new one), or discards it. It is never posted by itself.
 */
export function HeldMail({ onReleased }: { onReleased: (threadId: string) => void }) {
  const held = useQuery(trpc.messages.held.queryOptions());
  if (!held.data?.length) return null;
  return (
    <details className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950/30">
      <summary className="flex cursor-pointer items-center gap-2 font-medium">
        <ShieldAlert aria-hidden className="size-4" />
        {held.data.length} mail{held.data.length === 1 ? '' : 's'} held for review
      </summary>
      <ul aria-label="Held mail" className="mt-2 flex flex-col gap-2">
        {held.data.map((h) => (
          <HeldItem key={h.id} held={h} onReleased={onReleased} />
        ))}
      </ul>
    </details>
  );
}

function HeldItem({ held: h, onReleased }: { held: THeld; onReleased: (threadId: string) => void }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  // Another client than the address's (a mail forwarded to the wrong client): picked by name, with
  // the projects' client search (its right needed; otherwise the held mail's own client only).
  const canPickClient = useCan('projects.view');
  const [clientId, setClientId] = useState<string | null>(h.clientId);
  const [target, setTarget] = useState<string>(h.threadId ?? NEW_THREAD);
  const [shown, setShown] = useState(false);
  const threads = useQuery({
    ...trpc.messages.list.queryOptions({ clientId: clientId ?? '', status: 'any', pageSize: 100 }),
    enabled: Boolean(clientId),
  });
  const pickClient = (next: string | null) => {
    setClientId(next);
    setTarget(next && next === h.clientId && h.threadId ? h.threadId : NEW_THREAD);
  };
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.messages.held.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.messages.list.queryKey() });
  };
  const discard = useMutation(
    trpc.messages.discardHeld.mutationOptions({
      onSuccess: done,
      onError: (e) => toast.error(e.message),
    }),
  );
  const release = useMutation(
    trpc.messages.releaseHeld.mutationOptions({
      onSuccess: (r) => {
        done();
        void queryClient.invalidateQueries({
          queryKey: trpc.messages.messages.queryKey({ threadId: r.threadId }),
        });
        toast.success(
          r.files.length
            ? `Released into the conversation with ${r.files.length === 1 ? 'its file' : `its ${r.files.length} files`}`
            : 'Released into the conversation',
        );
        onReleased(r.threadId);
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  const rows = threads.data?.rows ?? [];
  const options = [
    { value: NEW_THREAD, label: `A new conversation “${h.subject || '(no subject)'}”` },
    ...(h.threadId && clientId === h.clientId && !rows.some((r) => r.id === h.threadId)
      ? [{ value: h.threadId, label: 'Its conversation' }]
      : []),
    ...rows.map((r) => ({ value: r.id, label: r.status === 'closed' ? `${r.subject} (closed)` : r.subject })),
  ];
  return (
    <li
      aria-label={`Held mail from ${h.fromAddress}`}
      className="flex flex-col gap-1 rounded border border-border bg-surface p-2"
    >
      <p className="flex flex-wrap gap-x-2 text-xs text-muted-fg">
        <span className="font-medium text-fg">{h.fromAddress}</span>
        {h.clientName ? <span>for {h.clientName}</span> : null}
        <span>{format.dateTime(h.createdAt)}</span>
      </p>
      <p className="font-medium">{h.subject || '(no subject)'}</p>
      <p className="line-clamp-3 whitespace-pre-wrap break-words text-xs">{h.body}</p>
      {h.files.length ? (
        // Kept, not yet the client's documents: filed with the message when released.
        <ul aria-label="Files" className="flex flex-wrap gap-x-3 text-xs">
          {h.files.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a mail may carry two files of one name
            <li key={i} className="inline-flex items-center gap-1">
              <Paperclip aria-hidden className="size-3" />
              <span className="break-all">{f.name}</span>
              <span className="text-muted-fg">{format.bytes(f.size)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {h.attachmentNames.length ? (
        <p className="text-xs text-muted-fg">Files not kept: {h.attachmentNames.join(', ')}</p>
      ) : null}
      <p className="text-xs text-muted-fg">{REASONS[h.reason] ?? h.reason}</p>
      <div className="flex flex-wrap items-center gap-2">
        {canPickClient ? (
          <ClientPicker
            aria-label="Client"
            className="w-64 max-w-full"
            value={clientId}
            onChange={pickClient}
          />
        ) : null}
        {clientId ? (
          <>
            <Select
              size="sm"
              aria-label="Release into"
              className="w-72 max-w-full"
              value={target}
              onValueChange={setTarget}
              options={options}
            />
            <Checkbox
              label="Show to the client"
              checked={shown}
              onCheckedChange={(v) => setShown(v === true)}
            />
            <Button
              size="sm"
              disabled={release.isPending}
              onClick={() =>
                release.mutate(
                  target === NEW_THREAD
                    ? { heldId: h.id, clientId, internal: !shown }
                    : { heldId: h.id, threadId: target, internal: !shown },
                )
              }
            >
              Release
            </Button>
          </>
        ) : null}
        <Button
          size="sm"
          variant="outline"
          className="ml-auto"
          disabled={discard.isPending}
          onClick={() => discard.mutate({ heldId: h.id })}
        >
          Discard
        </Button>
      </div>
    </li>
  );
}
