import { ESIGN_CONSENT_TEXT } from '@domain/proposals';
import { useMutation } from '@tanstack/react-query';
import { Button, Checkbox, Field, Input, Spinner } from '@web/ui';
import { CheckCircle2, Download, FileText } from 'lucide-react';
import { useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { ProposalBody } from './proposal-body';
import { SignaturePad } from './signature-pad';
import { DeclineForm, type TSignerLink, useSignerView } from './signing-decline';

/** The review and signature: the letter, the choice of package and add-ons, typed or drawn, consent. */
export function SigningReview({ link, session }: { link: TSignerLink; session: string }) {
  const view = useSignerView(link, session);
  const [packageIndex, setPackage] = useState(0);
  const [addOns, setAddOns] = useState<number[]>([]);
  const [mode, setMode] = useState<'typed' | 'drawn'>('typed');
  const [typed, setTyped] = useState('');
  const [drawn, setDrawn] = useState<string | null>(null);
  const [consent, setConsent] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [finished, setFinished] = useState<'signed' | 'declined' | null>(null);
  const sign = useMutation(trpc.signing.sign.mutationOptions({ onSuccess: () => setFinished('signed') }));
  if (finished) {
    return (
      <div className="flex flex-col items-center gap-3 py-6 text-center">
        <CheckCircle2 aria-hidden className="size-10 text-primary" />
        <h1 className="text-xl font-semibold">
          {finished === 'signed' ? 'Thank you: you have signed' : 'You have declined'}
        </h1>
        <p className="text-sm text-muted-fg">
          {finished === 'signed'
            ? 'The firm is told. When everyone has signed, you will find the signed copy with them.'
            : 'The firm is told, with your reason.'}
        </p>
      </div>
    );
  }
  if (view.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (view.isError) return <p className="text-sm text-danger">{errorMessage(view.error)}</p>;
  const v = view.data;
  const chosen = v.chosen ?? { packageIndex, addOnIndexes: addOns };
  return (
    <div className="flex flex-col gap-5">
      <div>
        <p className="text-sm text-muted-fg">{v.firmName}</p>
        <h1 className="text-xl font-semibold">{v.title}</h1>
      </div>
      {v.kind === 'document' ? (
        <SignedFile link={link} session={session} letterHtml={v.letterHtml} document={v.document} />
      ) : (
        <ProposalBody
          rendered={v}
          chosen={chosen}
          locked={!!v.chosen || !v.myTurn}
          onPackage={setPackage}
          onAddOns={setAddOns}
        />
      )}
      <section aria-label="Signers" className="text-sm">
        <h2 className="mb-1 font-semibold">Signers{v.signingOrder === 'sequential' ? ', in turn' : ''}</h2>
        <ul className="flex flex-col gap-1">
          {v.signers.map((s) => (
            <li key={s.name}>
              {s.name}: {s.signedAt ? 'signed' : s.declinedAt ? 'declined' : 'not yet signed'}
            </li>
          ))}
        </ul>
      </section>
      {!v.myTurn ? (
        <p className="rounded-md bg-muted p-3 text-sm">
          {v.me.signedAt
            ? 'You have signed this document.'
            : v.status !== 'sent'
              ? `This ${v.kind === 'document' ? 'signature request' : 'proposal'} is ${v.status}.`
              : 'It is not your turn to sign yet: we will email you when it is.'}
        </p>
      ) : declining ? (
        <DeclineForm link={link} session={session} onDone={() => setFinished('declined')} />
      ) : (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            sign.mutate({
              ...link,
              session,
              packageIndex: chosen.packageIndex,
              addOnIndexes: chosen.addOnIndexes,
              signature:
                mode === 'typed' ? { kind: 'typed', text: typed } : { kind: 'drawn', image: drawn ?? '' },
              consent: consent as true,
            });
          }}
        >
          <h2 className="font-semibold">Your signature</h2>
          <div role="radiogroup" aria-label="How to sign" className="flex gap-2">
            <Button
              type="button"
              size="sm"
              variant={mode === 'typed' ? 'primary' : 'outline'}
              aria-pressed={mode === 'typed'}
              onClick={() => setMode('typed')}
            >
              Type
            </Button>
            <Button
              type="button"
              size="sm"
              variant={mode === 'drawn' ? 'primary' : 'outline'}
              aria-pressed={mode === 'drawn'}
              onClick={() => setMode('drawn')}
            >
              Draw
            </Button>
          </div>
          {mode === 'typed' ? (
            <Field label="Type your full name">
              <Input
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="name"
                className="font-serif text-lg italic"
              />
            </Field>
          ) : (
            <SignaturePad onChange={setDrawn} />
          )}
          <Checkbox
            checked={consent}
            onCheckedChange={(c) => setConsent(c === true)}
            label={<span className="text-sm">{ESIGN_CONSENT_TEXT}</span>}
          />
          {sign.isError && <p className="text-sm text-danger">{errorMessage(sign.error)}</p>}
          <Button type="submit" size="lg" loading={sign.isPending}>
            Sign
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setDeclining(true)}>
            Decline…
          </Button>
        </form>
      )}
    </div>
  );
}

/** A signature request's file: the firm's message, the PDF shown in the page, and a download. */
function SignedFile({
  link,
  session,
  letterHtml,
  document,
}: {
  link: TSignerLink;
  session: string;
  letterHtml: string;
  document: { name: string; size: number } | null;
}) {
  if (!document)
    return <p className="text-sm text-danger">The document is no longer available: ask the firm.</p>;
  const query = new URLSearchParams({ t: link.token, s: session });
  const url = `/api/signing/${link.proposalId}/${link.signerId}/document?${query}`;
  return (
    <section aria-label="The document to sign" className="flex flex-col gap-3">
      {/* The firm's message: escaped on the server, paragraphs only. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: built from escaped text on the server. */}
      <div className="text-sm" dangerouslySetInnerHTML={{ __html: letterHtml }} />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <FileText aria-hidden className="size-4" />
        <span className="min-w-0 break-words font-medium">{document.name}</span>
        <a
          className="inline-flex items-center gap-1 underline"
          href={`${url}&download=1`}
          download={document.name}
        >
          <Download aria-hidden className="size-4" /> Download
        </a>
      </div>
      <iframe title={document.name} src={url} className="h-[60vh] w-full rounded-md border border-border" />
    </section>
  );
}
