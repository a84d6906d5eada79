import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadOnceForChunkError } from './chunk-reload';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('chunk reload guard', () => {
  it('reloads once per path, then not again within 10 seconds', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnceForChunkError('/clients', 1_000, storage, reload)).toBe(true);
    expect(reloadOnceForChunkError('/clients', 10_999, storage, reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunkError('/clients', 11_000, storage, reload)).toBe(true);
    expect(reloadOnceForChunkError('/tasks', 11_001, storage, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(3);
  });

  it('recognises the browsers’ chunk-load errors and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/a.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Network Error'))).toBe(false);
  });
});
