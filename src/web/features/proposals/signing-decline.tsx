import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Field, Textarea } from '@web/ui';
import { useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';

export type TSignerLink = { proposalId: string; signerId: string; token: string };

export function DeclineForm({
  link,
  session,
  onDone,
}: {
  link: TSignerLink;
  session: string;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const decline = useMutation(trpc.signing.decline.mutationOptions({ onSuccess: onDone }));
  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        decline.mutate({ ...link, session, reason });
      }}
    >
      <Field label="Why are you declining?" error={decline.isError ? errorMessage(decline.error) : undefined}>
        <Textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
      </Field>
      <Button type="submit" variant="danger" loading={decline.isPending}>
        Decline
      </Button>
    </form>
  );
}

export function useSignerView(link: TSignerLink, session: string) {
  return useQuery(trpc.signing.view.queryOptions({ ...link, session }));
}
