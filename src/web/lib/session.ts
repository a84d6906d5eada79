import { ROUTE_PATHS } from '@domain/route-guard';
import { trpcClient } from './trpc';

/**
 * Ends the staff session: the server call clears what it can (cookies, audit), then a full page
 * load to the login drops every cached query of the previous person.
 */
export async function signOutStaff(): Promise<void> {
  try {
    await trpcClient.auth.logout.mutate();
  } catch {
    // The call already showed its toast; the browser still leaves the session.
  }
  window.location.assign(ROUTE_PATHS['auth-login']);
}
