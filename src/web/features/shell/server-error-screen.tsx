import { ROUTE_PATHS } from '@domain/route-guard';
import { Button } from '@web/ui';
import { useState } from 'react';
import { trpcClient } from '../../lib/trpc';

/** The 500 screen for fatal or unhandled errors (SPEC.md §2). */
export function ServerErrorScreen() {
  const [leaving, setLeaving] = useState(false);
  async function goToDashboard() {
    setLeaving(true);
    try {
      await trpcClient.auth.logout.mutate();
    } catch {
      // Leaving must work even when the server is the problem.
    }
    // A full load: whatever state broke the page is gone with it.
    window.location.assign(ROUTE_PATHS['auth-login']);
  }
  return (
    <main role="alert" className="flex min-h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-6xl font-bold tracking-tight text-danger">500</p>
      <h1 className="text-xl font-semibold">Server Error</h1>
      <p className="max-w-md text-muted-fg">Whoops, something went wrong on our servers.</p>
      <Button onClick={goToDashboard} loading={leaving} className="mt-2">
        Go to Dashboard
      </Button>
    </main>
  );
}
