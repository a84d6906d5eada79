import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Input,
  Spinner,
  toast,
} from '@web/ui';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';

/** A searchable picker of clients not yet in the group; the chosen ones join it in one call. */
export function AddClientsDialog({
  open,
  onOpenChange,
  group,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  group: { id: string; name: string };
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    const handle = setTimeout(() => setTerm(text.trim()), 250);
    return () => clearTimeout(handle);
  }, [text]);
  useEffect(() => {
    if (!open) {
      setText('');
      setTerm('');
      setChosen(new Map());
    }
  }, [open]);
  const candidates = useQuery({
    ...trpc.clientGroups.candidates.queryOptions({ groupId: group.id, search: term }),
    enabled: open,
  });
  const add = useMutation(
    trpc.clientGroups.addClients.mutationOptions({
      onSuccess: async ({ added }) => {
        toast.success(`Added ${added} client${added === 1 ? '' : 's'} to ${group.name}`);
        onOpenChange(false);
        await queryClient.invalidateQueries({ queryKey: trpc.clientGroups.pathKey() });
      },
    }),
  );
  const toggle = (id: string, name: string) =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (next.has(id)) next.delete(id);
      else next.set(id, name);
      return next;
    });
  const rows = candidates.data ?? [];
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Add clients to ${group.name}`}
        description="Search by name or code; a client already in another group moves to this one."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              disabled={chosen.size === 0}
              loading={add.isPending}
              onClick={() => add.mutate({ groupId: group.id, clientIds: [...chosen.keys()] })}
            >
              {chosen.size ? `Add ${chosen.size} client${chosen.size === 1 ? '' : 's'}` : 'Add clients'}
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-3">
          <div className="relative">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-fg"
            />
            <Input
              type="search"
              autoFocus
              aria-label="Search clients"
              placeholder="Search clients by name or code"
              className="pl-8"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <div
            className="max-h-72 overflow-y-auto rounded-md border border-border"
            aria-busy={candidates.isFetching}
          >
            {candidates.isPending ? (
              <div className="flex justify-center p-6">
                <Spinner />
              </div>
            ) : rows.length === 0 ? (
              <p className="p-4 text-center text-sm text-muted-fg">
                {term ? 'No client matches that search.' : 'Every client is already in this group.'}
              </p>
            ) : (
              <ul aria-label="Clients to add" className="divide-y divide-border">
                {rows.map((c) => (
                  <li key={c.id} className="px-3 py-2">
                    <Checkbox
                      label={
                        <span>
                          {c.name} <span className="text-xs text-muted-fg">{c.code}</span>
                          {c.groupId ? (
                            <span className="text-xs text-muted-fg"> · in another group</span>
                          ) : null}
                        </span>
                      }
                      aria-label={c.name}
                      checked={chosen.has(c.id)}
                      onCheckedChange={() => toggle(c.id, c.name)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
          {chosen.size ? (
            <p className="text-sm text-muted-fg">Chosen: {[...chosen.values()].join(', ')}</p>
          ) : null}
        </div>
      </DialogContent>
    </DialogRoot>
  );
}
