import { ROUTE_PATHS } from '@domain/route-guard';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Spinner } from '@web/ui';
import { useEffect, useRef } from 'react';
import { clearPortalCookie } from '../../lib/cookies';
import { trpcClient } from '../../lib/trpc';

/** /clientportal/auth/logout: ends the session on the server, then the portal's sign-in. */
export function PortalLogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void trpcClient.clientPortalAuth.logout
      .mutate()
      .catch(() => {
        // The toast said why; the browser forgets the sign-in either way.
      })
      .finally(async () => {
        clearPortalCookie();
        queryClient.clear();
        await navigate({ href: ROUTE_PATHS['clientportal-auth-login'], replace: true });
      });
  }, [navigate, queryClient]);
  return (
    <p role="status" className="flex items-center gap-2 text-muted-fg">
      <Spinner className="size-4" /> Signing you out…
    </p>
  );
}
