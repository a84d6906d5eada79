import { MAX_MESSAGE_LENGTH, ZThreadCreate } from '@domain/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Dialog, DialogClose, DialogContent, Field, Input, Textarea, toast } from '@web/ui';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';

/**
 * A new conversation with a client: a subject, the first message, the client's portal users who take
 * part (none: an internal thread about the client) and members to put on it. Checked against the
 * procedure's own schema before it is sent.
 */
export function NewThreadButton({
  clientId,
  onCreated,
}: {
  clientId: string;
  onCreated: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [people, setPeople] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const options = useQuery({ ...trpc.messages.peopleOptions.queryOptions({ clientId }), enabled: open });
  const create = useMutation(
    trpc.messages.create.mutationOptions({
      onSuccess: async (r) => {
        setOpen(false);
        setSubject('');
        setBody('');
        setPeople([]);
        await queryClient.invalidateQueries({ queryKey: trpc.messages.list.queryKey() });
        onCreated(r.id);
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  const submit = () => {
    const parsed = ZThreadCreate.safeParse({ clientId, subject, body, clientUserIds: people });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the form');
      return;
    }
    setError(null);
    create.mutate(parsed.data);
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" onClick={() => setOpen(true)}>
        <MessageSquarePlus aria-hidden />
        New conversation
      </Button>
      <DialogContent
        title="New conversation"
        size="md"
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button onClick={submit} disabled={create.isPending}>
              Start conversation
            </Button>
          </>
        }
      >
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Field label="Subject" required>
            <Input value={subject} maxLength={200} onChange={(e) => setSubject(e.target.value)} />
          </Field>
          <Field label="Message" required>
            <Textarea
              value={body}
              rows={5}
              maxLength={MAX_MESSAGE_LENGTH}
              onChange={(e) => setBody(e.target.value)}
            />
          </Field>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-medium">With the client’s portal users</legend>
            {options.data?.clientUsers.length ? (
              options.data.clientUsers.map((u) => (
                <Checkbox
                  key={u.id}
                  label={`${u.name} (${u.email})`}
                  checked={people.includes(u.id)}
                  onCheckedChange={(on) =>
                    setPeople((list) => (on ? [...list, u.id] : list.filter((x) => x !== u.id)))
                  }
                />
              ))
            ) : (
              <p className="text-xs text-muted-fg">
                {options.isPending
                  ? 'Loading…'
                  : 'This client has no portal users: the conversation stays internal.'}
              </p>
            )}
          </fieldset>
          {error ? (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          ) : null}
        </form>
      </DialogContent>
    </Dialog>
  );
}
