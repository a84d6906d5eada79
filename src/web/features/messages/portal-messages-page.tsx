import { MAX_MESSAGE_LENGTH, ZPortalThreadCreate } from '@domain/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button, EmptyState, Field, Input, Skeleton, Textarea, toast } from '@web/ui';
import { MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { PortalThread } from './portal-thread';
import { ThreadList } from './thread-list';

const route = getRouteApi('/clientportal/$clientId/messages');

/** /clientportal/{clientId}/messages: the person's conversations with the firm, and a new one. */
export function PortalMessagesPage() {
  const { clientId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  if (search.thread) return <PortalThread key={search.thread} clientId={clientId} threadId={search.thread} />;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-lg font-semibold">Messages</h1>
      <NewPortalThread clientId={clientId} onCreated={(thread) => void navigate({ search: { thread } })} />
      <PortalThreadList
        clientId={clientId}
        page={search.page ?? 1}
        onOpen={(thread) => void navigate({ search: { thread } })}
      />
    </div>
  );
}

function PortalThreadList({
  clientId,
  page,
  onOpen,
}: {
  clientId: string;
  page: number;
  onOpen: (id: string) => void;
}) {
  const list = useQuery(trpc.clientPortalMessages.list.queryOptions({ clientId, page }));
  if (list.isPending) return <Skeleton className="h-40" />;
  if (!list.data?.rows.length)
    return (
      <EmptyState
        icon={MessagesSquare}
        title="No messages yet"
        message="Write to the firm above; their replies appear here."
      />
    );
  return (
    <div className="rounded-lg border border-border bg-surface">
      <ThreadList rows={list.data.rows} onSelect={onOpen} />
    </div>
  );
}

function NewPortalThread({ clientId, onCreated }: { clientId: string; onCreated: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.clientPortalMessages.create.mutationOptions({
      onSuccess: async (r) => {
        await queryClient.invalidateQueries({ queryKey: trpc.clientPortalMessages.list.queryKey() });
        onCreated(r.id);
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  if (!open)
    return (
      <div>
        <Button onClick={() => setOpen(true)}>New message</Button>
      </div>
    );
  return (
    <form
      aria-label="New message"
      className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-3"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = ZPortalThreadCreate.safeParse({ clientId, subject, body });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? 'Check the form');
          return;
        }
        setError(null);
        create.mutate(parsed.data);
      }}
    >
      <Field label="Subject" required>
        <Input value={subject} maxLength={200} onChange={(e) => setSubject(e.target.value)} />
      </Field>
      <Field label="Message" required hint="You can attach files in the conversation once it is sent.">
        <Textarea
          value={body}
          rows={4}
          maxLength={MAX_MESSAGE_LENGTH}
          onChange={(e) => setBody(e.target.value)}
        />
      </Field>
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending}>
          Send to the firm
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
