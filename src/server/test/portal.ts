import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import { createPortalSession, normaliseEmail, PORTAL_SESSION_COOKIE } from '../auth';
import { clientUserClients, clientUsers } from '../db/schema';
import type { AppRouter } from '../trpc/router';
import type { TTestApp } from './app';

/**
 * An active client user of one firm who may act for `clientIds`, already signed in to the portal
 * (a session row, as the one-time-code sign-in creates). Returns a tRPC client that sends the
 * session cookie as the browser would.
 */
export async function seedPortalUser(
  t: TTestApp,
  input: { orgId: string; clientIds: string[]; email?: string; name?: string },
) {
  const email = normaliseEmail(input.email ?? `client-${crypto.randomUUID()}@example.test`);
  const [user] = await t.db
    .insert(clientUsers)
    .values({ orgId: input.orgId, email, name: input.name ?? 'Priya Client', status: 'active' })
    .returning();
  if (!user) throw new Error('client user not created');
  if (input.clientIds.length) {
    await t.db
      .insert(clientUserClients)
      .values(input.clientIds.map((clientId) => ({ orgId: input.orgId, clientUserId: user.id, clientId })));
  }
  const { token } = await createPortalSession(t.db, { email });
  return { user, token, client: portalClient(t, token) };
}

/** A tRPC client carrying a portal session cookie (or none). */
export function portalClient(t: TTestApp, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${t.url}/api/trpc`,
        transformer: superjson,
        headers: () => (token ? { cookie: `${PORTAL_SESSION_COOKIE}=${token}` } : {}),
      }),
    ],
  });
}
