import { TRPCClientError } from '@trpc/client';
import { useSyncExternalStore } from 'react';
import { isChunkLoadError, reloadOnceForChunkError } from './chunk-reload';

// Errors that escape React (event handlers, timers, promises nobody awaited) still end on the 500
// screen (SPEC.md §2). Failed product calls are not fatal: they already showed a toast.

let fatal: unknown = null;
const listeners = new Set<() => void>();

export function reportFatal(error: unknown): void {
  fatal = error ?? new Error('Unknown error');
  for (const listener of listeners) listener();
}

export function useFatalError(): unknown {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => fatal,
  );
}

function handle(error: unknown): void {
  if (error instanceof TRPCClientError) return;
  if (isChunkLoadError(error)) {
    if (!reloadOnceForChunkError()) reportFatal(error);
    return;
  }
  reportFatal(error);
}

export function installFatalErrorHandlers(): void {
  window.addEventListener('error', (event) => {
    // Only our own scripts: a browser extension's error is not ours to report.
    if (event.filename && !event.filename.startsWith(window.location.origin)) return;
    if (!event.error) return;
    handle(event.error);
  });
  window.addEventListener('unhandledrejection', (event) => handle(event.reason));
}
