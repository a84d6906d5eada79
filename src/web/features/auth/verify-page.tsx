import type { TAuthLinkKey } from '@domain/auth-links';
import { Link } from '@tanstack/react-router';
import { Button, buttonVariants, Spinner } from '@web/ui';
import { confirmSignUp } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { hasStaffCookie } from '../../lib/cookies';
import { authErrorMessage, showAuthError } from './auth-errors';
import { AuthHeading } from './auth-layout';
import { resendVerificationLink } from './verification-link';

type TState = { kind: 'verifying' } | { kind: 'verified' } | { kind: 'failed'; message: string };

/** Opened from the emailed link: confirms the sign-up with the user name and code the key carries. */
export function VerifyPage({ link }: { link: TAuthLinkKey }) {
  const [state, setState] = useState<TState>({ kind: 'verifying' });
  const started = useRef(false);

  useEffect(() => {
    // Once per page: a code is single-use, a second confirmation would report it spent.
    if (started.current) return;
    started.current = true;
    confirmSignUp({ username: link.username, confirmationCode: link.code })
      .then(() => setState({ kind: 'verified' }))
      .catch((error: unknown) => {
        showAuthError(error);
        setState({ kind: 'failed', message: authErrorMessage(error) });
      });
  }, [link]);

  if (state.kind === 'verifying') {
    return (
      <p role="status" className="flex items-center gap-2 text-muted-fg">
        <Spinner className="size-4" /> Verifying your email…
      </p>
    );
  }
  if (state.kind === 'verified') {
    const signedIn = hasStaffCookie();
    return (
      <div className="flex flex-col items-start gap-4">
        <CircleCheck aria-hidden className="size-10 text-green-600" />
        <AuthHeading title="Email verified" description="Your email address is verified." />
        <Link to={signedIn ? '/' : '/auth/login'} className={buttonVariants()}>
          {signedIn ? 'Continue' : 'Sign in'}
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-4">
      <CircleX aria-hidden className="size-10 text-danger" />
      <AuthHeading title="We could not verify your email" description={state.message} />
      <Button variant="secondary" onClick={() => resendVerificationLink(link.username)}>
        Send a new link
      </Button>
      <Link to="/auth/login" className="text-sm text-primary hover:underline">
        Back to sign in
      </Link>
    </div>
  );
}
