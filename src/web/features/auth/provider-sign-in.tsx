import { safeReturnPath } from '@domain/route-guard';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '@web/ui';
import { useEffect, useState } from 'react';
import { appConfig } from '../../lib/config';
import { onRedirectSignIn } from '../../lib/hosted-sign-in';
import { showAuthError } from './auth-errors';

/**
 * "Sign in with <provider>" for each external identity provider the deployment names: Amplify's
 * signInWithRedirect through the hosted sign-in. Back on this page, Amplify (loaded at once for the
 * return, lib/auth.ts) finishes the flow (state checked: "Invalid state in OAuth flow") and
 * lib/hosted-sign-in.ts tells how it went.
 */
// The page asked for survives the trip to the provider in this tab's session storage (same origin,
// gone with the tab), and is checked again on the way back like any `next`.
const NEXT_KEY = 'practice.hostedSignIn.next';

function keepNext(next: string | undefined) {
  try {
    if (next) sessionStorage.setItem(NEXT_KEY, next);
    else sessionStorage.removeItem(NEXT_KEY);
  } catch {
    // Storage refused: the sign-in lands on home, as before.
  }
}

function takeNext(): string {
  try {
    const next = sessionStorage.getItem(NEXT_KEY);
    sessionStorage.removeItem(NEXT_KEY);
    return safeReturnPath(next, 'staff') ?? '/';
  } catch {
    return '/';
  }
}

export function ProviderSignIn({ next }: { next?: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const providers = appConfig.oauth?.providers ?? [];

  useEffect(
    () =>
      onRedirectSignIn((outcome) => {
        if (outcome.ok) void navigate({ href: takeNext() });
        else showAuthError(outcome.error);
      }),
    [navigate],
  );

  if (!providers.length) return null;
  return (
    <div className="mt-4 flex flex-col gap-2">
      <p className="text-center text-sm text-muted-fg">or</p>
      {providers.map((name) => (
        <Button
          key={name}
          variant="outline"
          loading={busy === name}
          onClick={async () => {
            setBusy(name);
            try {
              const { signInWithRedirect } = await import('./amplify-sign-in');
              keepNext(next);
              await signInWithRedirect({ provider: { custom: name } });
            } catch (error) {
              showAuthError(error);
              setBusy(null);
            }
          }}
        >
          Sign in with {name}
        </Button>
      ))}
    </div>
  );
}
