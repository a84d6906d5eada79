import { documentDownloadPath } from '@domain/documents';
import {
  FOLLOW_UP_BILLING_LABELS,
  SIGNING_ORDER_LABELS,
  SIGNING_ORDERS,
  type TSigningOrder,
  ZProposalUpdate,
} from '@domain/proposals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Button,
  Card,
  confirm,
  DatePicker,
  Field,
  Input,
  PageHeader,
  Select,
  Spinner,
  toast,
  useFormat,
} from '@web/ui';
import { Download, FileCheck } from 'lucide-react';
import { useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { saveFile } from '../documents/file-transfer';
import { RequirePermission } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { ContentFields, type TContentDraft, toDraft } from './content-fields';
import { ProposalBody } from './proposal-body';
import { ProposalStatusBadge } from './proposal-status-badge';
import { SignersEditor } from './signers-editor';

const route = getRouteApi('/_main/proposals/$id');

export function ProposalPage() {
  return (
    <RequirePermission permission="proposals.manage">
      <Proposal />
    </RequirePermission>
  );
}

function Proposal() {
  const { id } = route.useParams();
  const format = useFormat();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.proposals.get.queryOptions({ proposalId: id }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() });
  const send = useMutation(
    trpc.proposals.send.mutationOptions({
      onSuccess: async () => {
        toast.success('Proposal sent');
        await refresh();
      },
    }),
  );
  const withdraw = useMutation(
    trpc.proposals.withdraw.mutationOptions({
      onSuccess: async () => {
        toast.success('Proposal withdrawn');
        await refresh();
      },
    }),
  );
  if (detail.isPending) return <Spinner />;
  if (detail.isError)
    return <RecordNotFound thing="proposal" back={{ to: '/proposals', label: 'Back to proposals' }} />;
  const p = detail.data;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={p.title}
        description={`${p.clientName}${p.prospect ? ' (prospect)' : ''} · expires ${format.date(p.expiresOn)}`}
        trail={[{ label: 'Proposals', to: '/proposals' }, { label: p.title }]}
        actions={
          <div className="flex items-center gap-2">
            <ProposalStatusBadge status={p.displayStatus} />
            {p.status === 'draft' && (
              <Button loading={send.isPending} onClick={() => send.mutate({ proposalId: id })}>
                Send
              </Button>
            )}
            {(p.status === 'draft' || p.status === 'sent') && (
              <Button
                variant="outline"
                loading={withdraw.isPending}
                onClick={async () => {
                  if (
                    await confirm({
                      title: 'Withdraw this proposal?',
                      message: 'Its links stop working at once.',
                      confirmLabel: 'Withdraw',
                      danger: true,
                    })
                  )
                    withdraw.mutate({ proposalId: id });
                }}
              >
                Withdraw
              </Button>
            )}
          </div>
        }
      />
      {send.isError && (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(send.error)}
        </p>
      )}
      {p.declineReason && <p className="rounded-md bg-muted p-3 text-sm">Declined: “{p.declineReason}”</p>}
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="flex flex-col gap-6">
          {p.kind === 'document' ? (
            <Card className="flex flex-col gap-2 p-4">
              <h2 className="font-semibold">Document to sign</h2>
              {p.sourceDocument ? (
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <Link
                    to="/clients/$id/documents/$folderId"
                    params={{ id: p.clientId, folderId: p.sourceDocument.folderId }}
                    className="min-w-0 break-words underline"
                  >
                    {p.sourceDocument.name}
                  </Link>
                  <span className="text-muted-fg">version {p.sourceDocument.version}</span>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Download ${p.sourceDocument.name}`}
                    onClick={() => {
                      const doc = p.sourceDocument;
                      if (!doc) return;
                      saveFile(`${documentDownloadPath(doc.id)}?version=${doc.version ?? 1}`, doc.name).catch(
                        (e: unknown) => toast.error(e instanceof Error ? e.message : 'Download failed'),
                      );
                    }}
                  >
                    <Download aria-hidden /> Download
                  </Button>
                </div>
              ) : (
                <p className="text-sm text-muted-fg">The original was deleted from the client's documents.</p>
              )}
              <article
                aria-label="Message to the signers"
                className="rounded-md border border-border p-3 text-sm [&_p]:mb-2"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: the message is escaped on the server.
                dangerouslySetInnerHTML={{ __html: p.preview.letterHtml }}
              />
            </Card>
          ) : p.status === 'draft' ? (
            <DraftEditor proposal={p} />
          ) : (
            <Card className="p-4">
              <h2 className="mb-3 font-semibold">What the client sees</h2>
              <ProposalBody
                rendered={p.preview}
                chosen={
                  p.chosenPackage === null
                    ? undefined
                    : { packageIndex: p.chosenPackage, addOnIndexes: p.chosenAddOns ?? [] }
                }
                locked
              />
            </Card>
          )}
        </div>
        <div className="flex flex-col gap-6">
          {p.status === 'draft' && p.kind !== 'document' && (
            <Card className="p-4">
              <h2 className="mb-3 font-semibold">Preview: exactly what the signer will see</h2>
              <ProposalBody rendered={p.preview} locked />
            </Card>
          )}
          <Card className="p-4">
            <h2 className="mb-2 font-semibold">
              Signers ({SIGNING_ORDER_LABELS[p.signingOrder].toLowerCase()})
            </h2>
            <ul className="flex flex-col gap-1 text-sm">
              {p.signers.map((s) => (
                <li key={s.id}>
                  {s.name} &lt;{s.email}&gt;:{' '}
                  {s.signedAt
                    ? `signed ${format.dateTime(s.signedAt)}`
                    : s.declinedAt
                      ? 'declined'
                      : s.openedAt
                        ? 'opened'
                        : 'not opened'}
                </li>
              ))}
            </ul>
            {p.document ? (
              <SealedDocumentLink clientId={p.clientId} document={p.document} />
            ) : p.status === 'accepted' ? (
              <p className="mt-2 text-sm text-muted-fg">
                {p.documentId
                  ? 'The signed PDF was deleted from the client’s documents.'
                  : 'The signed PDF is being sealed: it appears in the client’s documents shortly.'}
              </p>
            ) : null}
          </Card>
          {p.status !== 'draft' && (p.followUp.billing !== 'none' || p.followUp.requestTemplateId) && (
            <Card className="p-4">
              <h2 className="mb-2 font-semibold">After acceptance</h2>
              <ul className="flex flex-col gap-1 text-sm">
                {p.followUp.billing !== 'none' && (
                  <li>
                    {FOLLOW_UP_BILLING_LABELS[p.followUp.billing]}
                    {p.followUp.retainer ? ` (${format.money(p.followUp.retainer)})` : ''}:{' '}
                    {p.invoice ? (
                      <Link to="/billing/invoices/$id" params={{ id: p.invoice.id }} className="underline">
                        {p.invoice.number ?? 'Draft invoice'} ({p.invoice.status})
                      </Link>
                    ) : p.followedUpAt ? (
                      'nothing was billed (see the system log)'
                    ) : p.status === 'accepted' ? (
                      'being made'
                    ) : (
                      'once accepted'
                    )}
                  </li>
                )}
                {p.followUp.requestTemplateId && (
                  <li>
                    Onboarding request:{' '}
                    {p.request ? (
                      <Link to="/requests/$id" params={{ id: p.request.id }} className="underline">
                        {p.request.title} ({p.request.status})
                      </Link>
                    ) : p.followedUpAt ? (
                      'not made (see the system log)'
                    ) : p.status === 'accepted' ? (
                      'being made'
                    ) : (
                      'sent once accepted'
                    )}
                  </li>
                )}
              </ul>
            </Card>
          )}
          <Card className="p-4">
            <h2 className="mb-2 font-semibold">Audit trail</h2>
            <ol aria-label="Audit trail" className="flex flex-col gap-2 text-sm">
              {p.events.map((e) => (
                <li key={e.id}>
                  <span className="font-medium">{e.kind.replace('_', ' ')}</span> · {e.who} ·{' '}
                  {format.dateTime(e.at)}
                  {e.detail ? <span className="block text-muted-fg">{e.detail}</span> : null}
                  {e.ip ? (
                    <span className="block text-xs text-muted-fg">
                      {e.ip} · {e.userAgent ?? ''}
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          </Card>
        </div>
      </div>
    </div>
  );
}

/** The sealed PDF in the client's documents: its folder (“Signed agreements”) and a download. */
export function SealedDocumentLink({
  clientId,
  document,
}: {
  clientId: string;
  document: { id: string; name: string; folderId: string };
}) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 rounded-md bg-muted p-3 text-sm">
      <FileCheck aria-hidden className="size-4" />
      <Link
        to="/clients/$id/documents/$folderId"
        params={{ id: clientId, folderId: document.folderId }}
        className="min-w-0 break-words underline"
      >
        Signed document: {document.name}
      </Link>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Download ${document.name}`}
        onClick={() =>
          saveFile(documentDownloadPath(document.id), document.name).catch((e: unknown) =>
            toast.error(e instanceof Error ? e.message : 'Download failed'),
          )
        }
      >
        <Download aria-hidden /> Download
      </Button>
    </div>
  );
}

type TDetail = {
  id: string;
  clientId: string;
  title: string;
  expiresOn: string;
  signingOrder: TSigningOrder;
  signers: { name: string; email: string }[];
} & Parameters<typeof toDraft>[0];

function DraftEditor({ proposal }: { proposal: TDetail }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(proposal.title);
  const [expiresOn, setExpiresOn] = useState(proposal.expiresOn);
  const [signingOrder, setOrder] = useState<TSigningOrder>(proposal.signingOrder);
  const [signers, setSigners] = useState(proposal.signers.map((s) => ({ name: s.name, email: s.email })));
  const [content, setContent] = useState<TContentDraft>(() => toDraft(proposal));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(
    trpc.proposals.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Draft saved');
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() });
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  const submit = () => {
    const parsed = ZProposalUpdate.safeParse({
      proposalId: proposal.id,
      title,
      expiresOn,
      signingOrder,
      signers,
      ...content,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the proposal');
      return;
    }
    save.mutate(parsed.data);
  };
  return (
    <Card className="flex flex-col gap-4 p-4">
      <h2 className="font-semibold">Draft</h2>
      <Field label="Title">
        <Input value={title} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Expires on">
          <DatePicker value={expiresOn} onChange={(v) => setExpiresOn(v ?? '')} />
        </Field>
        <Field label="Signing order">
          <Select
            value={signingOrder}
            options={SIGNING_ORDERS.map((o) => ({ value: o, label: SIGNING_ORDER_LABELS[o] }))}
            onValueChange={(v) => setOrder(v as TSigningOrder)}
          />
        </Field>
      </div>
      <SignersEditor clientId={proposal.clientId} signers={signers} onChange={setSigners} />
      <ContentFields value={content} onChange={setContent} />
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <Button className="self-start" loading={save.isPending} onClick={submit}>
        Save draft
      </Button>
    </Card>
  );
}
