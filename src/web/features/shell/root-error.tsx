import type { ErrorComponentProps } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { isChunkLoadError, reloadOnceForChunkError } from '../../lib/chunk-reload';
import { ServerErrorScreen } from './server-error-screen';

// Decided once per error: a render may run twice, the reload must not be attempted twice.
const reloading = new WeakMap<object, boolean>();

function reloadsForChunk(error: unknown): boolean {
  if (!isChunkLoadError(error) || typeof error !== 'object' || error === null) return false;
  if (!reloading.has(error)) reloading.set(error, reloadOnceForChunkError());
  return reloading.get(error) === true;
}

/** The router's error boundary: a stale chunk reloads once, a 401 is already redirecting, the rest is fatal. */
export function RootError({ error }: ErrorComponentProps) {
  if (reloadsForChunk(error)) return null;
  if (error instanceof TRPCClientError && error.data?.httpStatus === 401) return null;
  return <ServerErrorScreen />;
}
