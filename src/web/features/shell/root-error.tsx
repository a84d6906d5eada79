import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { Button } from '@web/ui';
import { isChunkLoadError, reloadOnceForChunkError } from '../../lib/chunk-reload';
import { isAccessTurnedOff } from '../../lib/trpc';
import { PageLoading } from './page-loading';
import { ServerErrorScreen } from './server-error-screen';

// Decided once per error: a render may run twice, the reload must not be attempted twice.
const reloading = new WeakMap<object, boolean>();

function reloadsForChunk(error: unknown): boolean {
  if (!isChunkLoadError(error) || typeof error !== 'object' || error === null) return false;
  if (!reloading.has(error)) reloading.set(error, reloadOnceForChunkError());
  return reloading.get(error) === true;
}

/** Still refused after waiting the Retry-After a few times: not a server fault, say so and offer a retry. */
function TooManyRequestsScreen({ message }: { message: string }) {
  const router = useRouter();
  return (
    <main role="alert" className="flex min-h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-xl font-semibold">Too many requests</h1>
      <p className="max-w-md text-muted-fg">{message}</p>
      <Button onClick={() => void router.invalidate()} className="mt-2">
        Try again
      </Button>
    </main>
  );
}

/**
 * The router's error boundary: a stale chunk reloads once, a 401 is already redirecting, a member
 * whose access was turned off is being signed out (not a server fault), a rate limit says how long
 * to wait, the rest is fatal.
 */
export function RootError({ error }: ErrorComponentProps) {
  if (reloadsForChunk(error)) return null;
  if (error instanceof TRPCClientError && error.data?.httpStatus === 401) return null;
  if (isAccessTurnedOff(error)) return <PageLoading />;
  if (error instanceof TRPCClientError && error.data?.httpStatus === 429)
    return <TooManyRequestsScreen message={error.message} />;
  return <ServerErrorScreen />;
}
