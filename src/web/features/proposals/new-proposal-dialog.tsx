import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button, Dialog, DialogClose, DialogContent, Field, Input, Select, useDebounced } from '@web/ui';
import { useState } from 'react';
import { errorMessage, trpc, trpcClient } from '../../lib/trpc';
import { emptyContent } from './content-fields';

/** Picks the client or prospect and the template, writes the draft, and opens it to edit and send. */
export function NewProposalDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const go = useNavigate();
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search, 250);
  const [client, setClient] = useState<{ id: string; name: string; email: string | null } | null>(null);
  const [templateId, setTemplateId] = useState<string>('');
  const [signerName, setSignerName] = useState('');
  const [signerEmail, setSignerEmail] = useState('');
  const clients = useQuery(trpc.proposals.clientOptions.queryOptions({ search: debounced }));
  const templates = useQuery(trpc.proposals.templates.list.queryOptions());
  const create = useMutation({
    mutationFn: async () => {
      if (!client) throw new Error('Choose a client or prospect');
      const base = templateId
        ? await trpcClient.proposals.fromTemplate.query({ clientId: client.id, templateId })
        : {
            ...emptyContent(),
            title: `Engagement letter for ${client.name}`,
            templateName: null,
            expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
            signingOrder: 'any' as const,
          };
      return trpcClient.proposals.create.mutate({
        ...base,
        clientId: client.id,
        signers: [{ name: signerName, email: signerEmail }],
      });
    },
    onSuccess: async (created) => {
      onOpenChange(false);
      await go({ to: '/proposals/$id', params: { id: created.id } });
    },
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="New proposal"
        description="For a client or a prospect: you can edit everything before it is sent."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button loading={create.isPending} disabled={!client} onClick={() => create.mutate()}>
              Write proposal
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          <Field label="Client or prospect">
            <Input value={search} placeholder="Type a name" onChange={(e) => setSearch(e.target.value)} />
          </Field>
          <ul aria-label="Matching clients" className="flex max-h-40 flex-col gap-1 overflow-y-auto">
            {(clients.data ?? []).map((c) => (
              <li key={c.id}>
                <Button
                  variant={client?.id === c.id ? 'primary' : 'ghost'}
                  size="sm"
                  className="w-full justify-start"
                  aria-pressed={client?.id === c.id}
                  onClick={() => {
                    setClient(c);
                    if (!signerName) setSignerName(c.name);
                    if (!signerEmail && c.email) setSignerEmail(c.email);
                  }}
                >
                  {c.name} {c.prospect ? '(prospect)' : ''}
                </Button>
              </li>
            ))}
          </ul>
          <Field label="Template">
            <Select
              value={templateId || undefined}
              placeholder="No template: start from a blank letter"
              options={(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              onValueChange={setTemplateId}
            />
          </Field>
          <Field label="First signer's name">
            <Input value={signerName} onChange={(e) => setSignerName(e.target.value)} />
          </Field>
          <Field label="First signer's email">
            <Input type="email" value={signerEmail} onChange={(e) => setSignerEmail(e.target.value)} />
          </Field>
          {create.isError && (
            <p role="alert" className="text-sm text-danger">
              {errorMessage(create.error)}
            </p>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
