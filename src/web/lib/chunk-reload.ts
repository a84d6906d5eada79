import { CHUNK_RELOAD_GUARD_MS } from '@domain/constants';

const KEY = 'practice.chunk-reload:';

/** A new deployment removes the old hashed chunks; the first failed load after it means "reload". */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Reloads the page once for this path, at most once per 10 seconds (SPEC.md §8), so a chunk that is
 * really gone ends on the error screen instead of a reload loop. Returns whether it reloaded.
 */
export function reloadOnceForChunkError(
  path: string = location.pathname,
  now: number = Date.now(),
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  reload: () => void = () => location.reload(),
): boolean {
  const last = storage.getItem(KEY + path);
  if (last !== null && now - Number(last) < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(KEY + path, String(now));
  reload();
  return true;
}

export function installChunkReloadGuard(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnceForChunkError()) event.preventDefault();
  });
}
