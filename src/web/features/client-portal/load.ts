import { TRPCClientError } from '@trpc/client';
import { ensureValidRoute } from '../../lib/route-guard';

/**
 * A portal route's data: the server's NOT_FOUND (another client's folder, an internal task) makes
 * the route invalid, a 404 "Page Not Found: {fullPath}" (SPEC.md §8).
 */
export async function loadOrNotFound(load: () => Promise<unknown>): Promise<void> {
  try {
    await load();
  } catch (error) {
    if (error instanceof TRPCClientError && error.data?.code === 'NOT_FOUND') ensureValidRoute(false);
    throw error;
  }
}
