import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Button, Card, EmptyState, Field, Skeleton, Textarea, useFormat } from '@web/ui';
import { CheckCircle2, PenLine } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { ProposalBody } from './proposal-body';
import { SignatureForm, SignedFile, SignerTurn } from './signing-review';

// The portal's "To sign" (/clientportal/{clientId}/sign): what waits on the signed-in person, and
// the signing page itself without the mailed code (the portal's sign-in stands for it).

const listRoute = getRouteApi('/clientportal/$clientId/sign/');
const oneRoute = getRouteApi('/clientportal/$clientId/sign/$proposalId');

export function PortalToSignPage() {
  const { clientId } = listRoute.useParams();
  const format = useFormat();
  const list = useQuery(trpc.clientPortalSigning.list.queryOptions({ clientId }));
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold tracking-tight">To sign</h1>
      {list.isPending ? (
        <Skeleton className="h-32" />
      ) : list.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(list.error)}
        </p>
      ) : list.data.length === 0 ? (
        <Card>
          <EmptyState
            icon={PenLine}
            title="Nothing to sign"
            message="When your firm sends you a letter or a document to sign, it shows here."
          />
        </Card>
      ) : (
        <Card className="px-4">
          <ul className="divide-y divide-border" aria-label="To sign">
            {list.data.map((r) => (
              <li key={r.id} className="flex flex-col gap-1 py-3">
                <Link
                  to="/clientportal/$clientId/sign/$proposalId"
                  params={{ clientId, proposalId: r.id }}
                  className="min-w-0 break-words font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                >
                  {r.title}
                </Link>
                <p className="text-xs text-muted-fg">
                  {r.kind === 'document' ? 'Document' : 'Engagement letter'} · sign by{' '}
                  {format.date(r.expiresOn)}
                </p>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

export function PortalSignPage() {
  const { clientId, proposalId } = oneRoute.useParams();
  const queryClient = useQueryClient();
  const open = useMutation(trpc.clientPortalSigning.get.mutationOptions());
  const [packageIndex, setPackage] = useState(0);
  const [addOns, setAddOns] = useState<number[]>([]);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [finished, setFinished] = useState<'signed' | 'declined' | null>(null);
  const done = (how: 'signed' | 'declined') => async () => {
    setFinished(how);
    await queryClient.invalidateQueries({ queryKey: trpc.clientPortalSigning.list.pathKey() });
  };
  const sign = useMutation(trpc.clientPortalSigning.sign.mutationOptions({ onSuccess: done('signed') }));
  const decline = useMutation(
    trpc.clientPortalSigning.decline.mutationOptions({ onSuccess: done('declined') }),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per proposal (it records the opening).
  useEffect(() => {
    open.mutate({ clientId, proposalId });
  }, [clientId, proposalId]);
  const back = (
    <Link to="/clientportal/$clientId/sign" params={{ clientId }} className="text-sm underline">
      Back to To sign
    </Link>
  );
  if (finished) {
    return (
      <Card className="flex flex-col items-center gap-3 p-6 text-center">
        <CheckCircle2 aria-hidden className="size-10 text-primary" />
        <h1 className="text-xl font-semibold">
          {finished === 'signed' ? 'Thank you: you have signed' : 'You have declined'}
        </h1>
        <p className="text-sm text-muted-fg">
          {finished === 'signed'
            ? 'The firm is told. When everyone has signed, the signed copy appears in your documents.'
            : 'The firm is told, with your reason.'}
        </p>
        {back}
      </Card>
    );
  }
  if (open.isError) {
    return (
      <div className="flex flex-col gap-3">
        <p role="alert" className="text-sm text-danger">
          {errorMessage(open.error)}
        </p>
        {back}
      </div>
    );
  }
  if (!open.data) return <Skeleton className="h-64" />;
  const v = open.data;
  const chosen = v.chosen ?? { packageIndex, addOnIndexes: addOns };
  return (
    <div className="flex flex-col gap-5">
      {back}
      <div>
        <p className="text-sm text-muted-fg">{v.firmName}</p>
        <h1 className="break-words text-xl font-semibold">{v.title}</h1>
      </div>
      <Card className="p-4">
        {v.kind === 'document' ? (
          <SignedFile
            letterHtml={v.letterHtml}
            document={v.document}
            url={null}
            downloadUrl={
              v.sharedDocumentId
                ? `/api/clientportal/${clientId}/documents/${v.sharedDocumentId}/download`
                : undefined
            }
          />
        ) : (
          <ProposalBody
            rendered={v}
            chosen={chosen}
            locked={!!v.chosen || !v.myTurn}
            onPackage={setPackage}
            onAddOns={setAddOns}
          />
        )}
      </Card>
      <SignerTurn view={v} />
      {!v.myTurn ? null : declining ? (
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            decline.mutate({ clientId, proposalId, reason });
          }}
        >
          <Field
            label="Why are you declining?"
            error={decline.isError ? errorMessage(decline.error) : undefined}
          >
            <Textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
          </Field>
          <Button type="submit" variant="danger" loading={decline.isPending}>
            Decline
          </Button>
        </form>
      ) : (
        <Card className="p-4">
          <SignatureForm
            pending={sign.isPending}
            error={sign.isError ? errorMessage(sign.error) : null}
            onDecline={() => setDeclining(true)}
            onSign={(signature) =>
              sign.mutate({
                clientId,
                proposalId,
                packageIndex: chosen.packageIndex,
                addOnIndexes: chosen.addOnIndexes,
                signature,
                consent: true,
              })
            }
          />
        </Card>
      )}
    </div>
  );
}
