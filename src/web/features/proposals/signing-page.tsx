import { useMutation } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button, Field, Input, Spinner } from '@web/ui';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';
import type { TSignerLink } from './signing-decline';
import { SigningReview } from './signing-review';

const route = getRouteApi('/_auth/sign/$proposalId/$signerId');

/**
 * /sign/{proposal}/{signer}?t=…: the signer's page, no account. The link opens it, a code mailed
 * to the signer confirms the mailbox, then the review and the signature. The session secret lives
 * in this page's memory only: a reload asks for a new code.
 */
export function SigningPage() {
  const params = route.useParams();
  const { t } = route.useSearch();
  const link: TSignerLink = { proposalId: params.proposalId, signerId: params.signerId, token: t ?? '' };
  const [session, setSession] = useState<string | null>(null);
  const open = useMutation(trpc.signing.open.mutationOptions());
  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per link.
  useEffect(() => {
    open.mutate(link);
  }, [link.proposalId, link.signerId, link.token]);
  if (open.isPending || open.isIdle) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (open.isError) {
    return <AuthHeading title="This link cannot be used" description={errorMessage(open.error)} />;
  }
  if (!session) return <CodeStep link={link} info={open.data} onSession={setSession} />;
  return <SigningReview link={link} session={session} />;
}

function CodeStep({
  link,
  info,
  onSession,
}: {
  link: TSignerLink;
  info: { firmName: string; title: string; signerName: string; email: string };
  onSession: (s: string) => void;
}) {
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useMutation(
    trpc.signing.requestCode.mutationOptions({ onSuccess: (r) => setSentTo(r.email) }),
  );
  const verify = useMutation(
    trpc.signing.verifyCode.mutationOptions({ onSuccess: (r) => onSession(r.session) }),
  );
  if (!sentTo) {
    return (
      <>
        <AuthHeading
          title={info.title}
          description={`${info.firmName} sent this to ${info.signerName} for review and signature.`}
        />
        <p className="mb-4 text-sm">
          To confirm it is you, we will email a one-time code to <strong>{info.email}</strong>.
        </p>
        {request.isError && <p className="mb-3 text-sm text-danger">{errorMessage(request.error)}</p>}
        <Button size="lg" className="w-full" loading={request.isPending} onClick={() => request.mutate(link)}>
          Email me a code
        </Button>
      </>
    );
  }
  return (
    <>
      <MailCheck aria-hidden className="mb-3 size-10 text-primary" />
      <AuthHeading title="Check your email" description={`We sent a 6-digit code to ${sentTo}.`} />
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          verify.mutate({ ...link, code });
        }}
      >
        <Field label="Code" error={verify.isError ? errorMessage(verify.error) : undefined}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            className="text-center font-mono text-xl tracking-[0.5em]"
          />
        </Field>
        <Button type="submit" size="lg" loading={verify.isPending}>
          Open the document
        </Button>
      </form>
      <Button
        variant="ghost"
        size="sm"
        className="mt-3"
        loading={request.isPending}
        onClick={() => request.mutate(link)}
      >
        Send a new code
      </Button>
    </>
  );
}
