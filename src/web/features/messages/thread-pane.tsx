import { messageAttachmentPath } from '@domain/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, Button, IconButton, Input, Select, Skeleton, toast } from '@web/ui';
import { Pencil } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { saveFile } from '../documents/file-transfer';
import { useCan } from '../shell/access';
import { useProfile } from '../shell/use-profile';
import { useMakeTask } from './make-task';
import { SaveFileButton, StartRequestButton } from './message-actions';
import { MessageList } from './message-list';
import { StaffComposer } from './staff-composer';

/** How often an open thread looks for new messages (a conversation going on in both windows). */
const POLL_MS = 10_000;
const NOBODY = 'nobody';

/** One thread for the firm: who is on it, open/closed and its assignee, the messages, a reply box. */
export function ThreadPane({ threadId }: { threadId: string }) {
  const profile = useProfile();
  const queryClient = useQueryClient();
  const thread = useQuery(trpc.messages.get.queryOptions({ threadId }, { refetchInterval: POLL_MS }));
  const page = useQuery(trpc.messages.messages.queryOptions({ threadId }, { refetchInterval: POLL_MS }));
  const clientId = thread.data?.client?.id;
  const options = useQuery({
    ...trpc.messages.peopleOptions.queryOptions({ clientId: clientId ?? '' }),
    enabled: Boolean(clientId),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.messages.get.queryKey({ threadId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.messages.messages.queryKey({ threadId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.messages.list.queryKey() }),
    ]);
  const markRead = useMutation(
    trpc.messages.markRead.mutationOptions({
      onSuccess: (r) => {
        if (r.changed) {
          void queryClient.invalidateQueries({ queryKey: trpc.messages.list.queryKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() });
        }
      },
    }),
  );
  const add = useMutation(
    trpc.messages.addPeople.mutationOptions({
      onSuccess: () => void refresh(),
      onError: (e) => toast.error(e.message),
    }),
  );
  const update = useMutation(
    trpc.messages.update.mutationOptions({
      onSuccess: () => void refresh(),
      onError: (e) => toast.error(e.message),
    }),
  );
  const makeTask = useMakeTask({
    id: threadId,
    subject: thread.data?.subject ?? '',
    clientId: thread.data?.client?.id ?? null,
  });
  const canMakeTasks = useCan('tasks.create');
  const canRequest = useCan('requests.manage');
  const canSaveFiles = useCan('documents.create');
  const lastSeq = thread.data?.lastSeq ?? 0;
  const myRead = thread.data?.myReadSeq ?? 0;
  // Seeing the thread is reading it: the mark moves (and is logged) when there is something new,
  // once per new last message (the thread's own read mark refreshes on its next poll).
  const marked = useRef(0);
  const mark = markRead.mutate;
  useEffect(() => {
    if (lastSeq > myRead && lastSeq > marked.current) {
      marked.current = lastSeq;
      mark({ threadId });
    }
  }, [lastSeq, myRead, threadId, mark]);

  if (thread.isError)
    return (
      <p role="alert" className="p-6 text-sm text-muted-fg">
        This conversation does not exist or is not yours to see.
      </p>
    );
  if (!thread.data) return <Skeleton className="m-4 h-64" />;
  const t = thread.data;
  const members = options.data?.members ?? [];
  return (
    <section aria-label={`Conversation: ${t.subject}`} className="flex min-h-0 flex-col gap-3">
      <header className="flex flex-col gap-2 border-b border-border pb-3">
        <div className="flex flex-wrap items-center gap-2">
          <SubjectEditor
            subject={t.subject}
            pending={update.isPending}
            onSave={(subject) => update.mutateAsync({ threadId, subject })}
          />
          <Badge tone={t.status === 'open' ? 'green' : 'grey'}>
            {t.status === 'open' ? 'Open' : 'Closed'}
          </Badge>
        </div>
        <p className="text-xs text-muted-fg">
          {t.client ? (
            <Link to="/clients/$id/messages" params={{ id: t.client.id }} className="underline">
              {t.client.name}
            </Link>
          ) : null}
          {' · '}
          With {t.people.clientUsers.map((p) => p.name).join(', ') || 'nobody of the client (internal)'}
          {' · '}
          Team: {t.people.members.map((p) => p.name).join(', ') || 'nobody yet'}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <Select
            size="sm"
            aria-label="Assigned to"
            className="w-56"
            value={t.assigneeId ?? NOBODY}
            onValueChange={(v) => update.mutate({ threadId, assigneeId: v === NOBODY ? null : v })}
            options={[
              { value: NOBODY, label: 'Unassigned' },
              ...(t.assigneeId && !members.some((m) => m.id === t.assigneeId)
                ? [{ value: t.assigneeId, label: 'Assigned' }]
                : []),
              ...members.map((m) => ({
                value: m.id,
                label: m.id === profile.id ? `${m.name} (me)` : m.name,
              })),
            ]}
          />
          <AddPerson
            options={[
              ...(options.data?.clientUsers ?? [])
                .filter((u) => !t.people.clientUsers.some((p) => p.id === u.id))
                .map((u) => ({ value: `c:${u.id}`, label: `${u.name} (client)` })),
              ...members
                .filter((m) => !t.people.members.some((p) => p.id === m.id))
                .map((m) => ({ value: `m:${m.id}`, label: m.name })),
            ]}
            onAdd={(value) =>
              add.mutate(
                value.startsWith('c:')
                  ? { threadId, clientUserIds: [value.slice(2)] }
                  : { threadId, memberIds: [value.slice(2)] },
              )
            }
          />
          <Button
            size="sm"
            variant="outline"
            disabled={update.isPending}
            onClick={() => update.mutate({ threadId, status: t.status === 'open' ? 'closed' : 'open' })}
          >
            {t.status === 'open' ? 'Close' : 'Reopen'}
          </Button>
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {page.data ? (
          <MessageList
            messages={page.data.messages.map((m) => ({ ...m, mine: m.authorMemberId === profile.id }))}
            onOpen={(f) => void saveFile(messageAttachmentPath(f.documentId), f.name)}
            action={(m) => (
              <div className="flex flex-wrap justify-end gap-x-3 gap-y-1">
                {canSaveFiles && t.client
                  ? m.attachments.map((f) => (
                      <SaveFileButton key={f.documentId} clientId={t.client?.id ?? ''} file={f} />
                    ))
                  : null}
                {canRequest && t.client && !m.internal ? (
                  <StartRequestButton
                    thread={{ id: threadId, subject: t.subject, clientId: t.client.id }}
                    message={m}
                  />
                ) : null}
                {canMakeTasks ? (
                  <button
                    type="button"
                    className="text-xs text-muted-fg underline-offset-2 hover:text-fg hover:underline"
                    disabled={makeTask.isPending}
                    onClick={() => makeTask.mutate(m)}
                  >
                    Make a task
                  </button>
                ) : null}
              </div>
            )}
          />
        ) : (
          <Skeleton className="h-40" />
        )}
      </div>
      <StaffComposer threadId={threadId} members={members} onSent={() => void refresh()} />
    </section>
  );
}

/** The thread's subject, renamed in place (Enter saves, Escape leaves it as it was). */
function SubjectEditor({
  subject,
  pending,
  onSave,
}: {
  subject: string;
  pending: boolean;
  onSave: (subject: string) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null)
    return (
      <div className="flex min-w-0 flex-1 items-center gap-1">
        <h2 className="min-w-0 truncate text-lg font-semibold">{subject}</h2>
        <IconButton aria-label="Rename the conversation" size="sm" onClick={() => setDraft(subject)}>
          <Pencil aria-hidden />
        </IconButton>
      </div>
    );
  const tooLong = draft.trim().length > 200;
  const save = () => {
    const next = draft.trim();
    if (!next || tooLong) return;
    if (next === subject) return setDraft(null);
    void onSave(next).then(
      () => setDraft(null),
      () => {},
    );
  };
  return (
    <form
      className="flex min-w-0 flex-1 items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Input
        aria-label="Subject"
        autoFocus
        className="min-w-0 flex-1"
        value={draft}
        maxLength={200}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setDraft(null);
        }}
      />
      <Button size="sm" type="submit" loading={pending} disabled={!draft.trim() || tooLong}>
        Save
      </Button>
      <Button size="sm" variant="outline" type="button" onClick={() => setDraft(null)}>
        Cancel
      </Button>
    </form>
  );
}

/** "Add someone": the client's portal users and the firm's members not on the thread yet. */
function AddPerson({
  options,
  onAdd,
}: {
  options: { value: string; label: string }[];
  onAdd: (value: string) => void;
}) {
  if (!options.length) return null;
  return (
    <Select
      size="sm"
      aria-label="Add someone"
      className="w-48"
      placeholder="Add someone…"
      value=""
      onValueChange={(v) => v && onAdd(v)}
      options={options}
    />
  );
}
