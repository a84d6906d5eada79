import { type TSignIn, ZSignIn } from '@domain/auth';
import { safeReturnPath } from '@domain/route-guard';
import { SIGNED_OUT_REASONS } from '@domain/signed-out';
import { zodResolver } from '@hookform/resolvers/zod';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Button, Field, Input } from '@web/ui';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { takeReturnAfterSignOut } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { authErrorMessage, showAuthError } from './auth-errors';
import { AuthHeading, StandalonePage } from './auth-layout';
import { ProviderSignIn } from './provider-sign-in';
import type { SignInChallenge, TChallenge, TSignInExits } from './sign-in-challenge';

// Amplify (about 35 KB) is not part of the page: it is fetched on the first touch of the form and
// awaited on submit. Not on focus: the email field takes the focus as the page opens. A hosted
// sign-in coming back loads it at once (lib/auth.ts).
const loadAmplify = () => import('./amplify-sign-in');
const prefetchAmplify = () => void loadAmplify().catch(() => {});

/**
 * Back to the invitation a person came from; otherwise the page they asked for (`next`, checked
 * by the route) or home for a member of a firm (or the authenticator set-up first, when the firm
 * requires one and it is missing), onboarding for someone who has not created one yet.
 */
async function landingAfterSignIn(invite: string | undefined, next: string | undefined): Promise<string> {
  if (invite) return `/auth/invite/${invite}`;
  const { hasFirm } = await trpcClient.onboarding.status.query();
  if (!hasFirm) return '/onboarding';
  const mfa = await trpcClient.account.mfa.status.query();
  return mfa.required && !mfa.enabled ? '/auth/mfa-setup' : (safeReturnPath(next, 'staff') ?? '/');
}

const route = getRouteApi('/auth/login');

/** The steps after the password: fetched only by a sign-in that has one (sign-in-challenge.tsx). */
type TChallengeView = { View: typeof SignInChallenge; first: TChallenge; exits: TSignInExits };

export function LoginPage() {
  const navigate = useNavigate();
  const { invite, reason, next } = route.useSearch();
  const [challenge, setChallenge] = useState<TChallengeView | null>(null);
  // Signed out by the app (access turned off): the reason stays beside the form until the next try.
  // Read from the address on every render, not kept from the first: the page may already be open
  // (a sign-out that landed here a moment earlier) when the address gains its reason.
  const [failure, setFailure] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const shownFailure = failure ?? (!tried && reason ? SIGNED_OUT_REASONS[reason] : null);
  useEffect(() => {
    // Back from the provider's /logout after a sign-out that meant to end elsewhere (an invitation).
    const target = takeReturnAfterSignOut();
    if (target) void navigate({ href: target, replace: true });
  }, [navigate]);
  const form = useForm<TSignIn>({
    resolver: zodResolver(ZSignIn),
    defaultValues: { email: '', password: '' },
  });

  const land = async () => {
    await navigate({ href: await landingAfterSignIn(invite, next) });
  };

  async function onSubmit(values: TSignIn) {
    setFailure(null);
    setTried(true);
    try {
      const { signIn } = await loadAmplify();
      const { nextStep } = await signIn({ username: values.email, password: values.password });
      // Most sign-ins end here, without the next steps' chunk.
      if (nextStep.signInStep === 'DONE') return await land();
      const { challengeFor, SignInChallenge } = await import('./sign-in-challenge');
      const exits: TSignInExits = {
        email: values.email,
        land,
        resetPassword: async () => {
          await navigate({ to: '/auth/forgotpassword' });
        },
      };
      const first = await challengeFor(nextStep, exits);
      if (first) setChallenge({ View: SignInChallenge, first, exits });
    } catch (error) {
      showAuthError(error);
      // Also beside the form: the toast fades, the reason should not.
      setFailure(authErrorMessage(error));
    }
  }

  if (challenge)
    return (
      <StandalonePage>
        <challenge.View
          first={challenge.first}
          exits={challenge.exits}
          onRestart={() => setChallenge(null)}
        />
      </StandalonePage>
    );
  return (
    <StandalonePage>
      <AuthHeading title="Sign in" description="Welcome back. Sign in to your practice." />
      <form
        onSubmit={form.handleSubmit(onSubmit)}
        onPointerDown={prefetchAmplify}
        onKeyDown={prefetchAmplify}
        noValidate
        className="flex flex-col gap-4"
      >
        <Field label="Email" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="username" autoFocus {...form.register('email')} />
        </Field>
        <Field label="Password" error={form.formState.errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </Field>
        <div className="-mt-2 text-right text-sm">
          <Link to="/auth/forgotpassword" className="text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        {shownFailure && (
          <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger">
            {shownFailure}
          </p>
        )}
        <Button type="submit" loading={form.formState.isSubmitting}>
          Sign in
        </Button>
      </form>
      <ProviderSignIn next={next} />
      <p className="mt-6 text-center text-sm text-muted-fg">
        New to Practice?{' '}
        <Link
          to="/auth/register"
          search={invite ? { invite } : {}}
          className="font-medium text-primary hover:underline"
        >
          Create an account
        </Link>
      </p>
    </StandalonePage>
  );
}
