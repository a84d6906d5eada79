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
        <SignedFile
          letterHtml={v.letterHtml}
          document={v.document}
          url={`/api/signing/${link.proposalId}/${link.signerId}/document?${new URLSearchParams({ t: link.token, s: session })}`}
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
      <SignerTurn view={v} />
      {!v.myTurn ? null : declining ? (
        <DeclineForm link={link} session={session} onDone={() => setFinished('declined')} />
      ) : (
        <SignatureForm
          pending={sign.isPending}
          error={sign.isError ? errorMessage(sign.error) : null}
          onDecline={() => setDeclining(true)}
          onSign={(signature) =>
            sign.mutate({
              ...link,
              session,
              packageIndex: chosen.packageIndex,
              addOnIndexes: chosen.addOnIndexes,
              signature,
              consent: true,
            })
          }
        />
      )}
    </div>
  );
}

type TSignerTurnView = {
  kind: 'proposal' | 'document';
  status: string;
  signingOrder: string;
  myTurn: boolean;
  me: { signedAt: Date | string | null };
  signers: { name: string; signedAt: Date | string | null; declinedAt: Date | string | null }[];
};

/** Who signs and who has, and, when it is not this signer's turn, why not. */
export function SignerTurn({ view: v }: { view: TSignerTurnView }) {
  return (
    <>
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
      {v.myTurn ? null : (
        <p className="rounded-md bg-muted p-3 text-sm">
          {v.me.signedAt
            ? 'You have signed this document.'
            : v.status !== 'sent'
              ? `This ${v.kind === 'document' ? 'signature request' : 'proposal'} is ${v.status}.`
              : 'It is not your turn to sign yet: we will email you when it is.'}
        </p>
      )}
    </>
  );
}

/**
 * A signature request's file: the firm's message, the PDF shown in the page (when `url` previews
 * it inline), and a download.
 */
export function SignedFile({
  letterHtml,
  document,
  url,
  downloadUrl,
}: {
  letterHtml: string;
  document: { name: string; size: number } | null;
  url: string | null;
  downloadUrl?: string;
}) {
  if (!document)
    return <p className="text-sm text-danger">The document is no longer available: ask the firm.</p>;
  const download = downloadUrl ?? (url ? `${url}&download=1` : null);
  return (
    <section aria-label="The document to sign" className="flex flex-col gap-3">
      <div
        className="text-sm [&_p]:mb-2"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: built from escaped text on the server.
        dangerouslySetInnerHTML={{ __html: letterHtml }}
      />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <FileText aria-hidden className="size-4" />
        <span className="min-w-0 break-words font-medium">{document.name}</span>
        {download ? (
          <a className="inline-flex items-center gap-1 underline" href={download} download={document.name}>
            <Download aria-hidden className="size-4" /> Download
          </a>
        ) : (
          <span className="text-muted-fg">
            Open it from the link in the firm's email, or ask the firm for a copy.
          </span>
        )}
      </div>
      {url ? (
        <iframe title={document.name} src={url} className="h-[60vh] w-full rounded-md border border-border" />
      ) : null}
    </section>
  );
}

export type TSignatureInput = { kind: 'typed'; text: string } | { kind: 'drawn'; image: string };

/** Typed or drawn, the consent, Sign and Decline: the link's page and the portal's share it. */
export function SignatureForm({
  pending,
  error,
  onSign,
  onDecline,
}: {
  pending: boolean;
  error: string | null;
  onSign: (signature: TSignatureInput) => void;
  onDecline: () => void;
}) {
  const [mode, setMode] = useState<'typed' | 'drawn'>('typed');
  const [typed, setTyped] = useState('');
  const [drawn, setDrawn] = useState<string | null>(null);
  const [consent, setConsent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!consent) {
          setProblem('Agree to sign electronically to continue');
          return;
        }
        setProblem(null);
        onSign(mode === 'typed' ? { kind: 'typed', text: typed } : { kind: 'drawn', image: drawn ?? '' });
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
      {(problem || error) && <p className="text-sm text-danger">{problem ?? error}</p>}
      <Button type="submit" size="lg" loading={pending}>
        Sign
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={onDecline}>
        Decline…
      </Button>
    </form>
  );
}
