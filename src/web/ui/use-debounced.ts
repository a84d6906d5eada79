import { useEffect, useState } from 'react';

/** How long typing must pause before a preview or a count is asked for again. */
export const TYPING_PAUSE_MS = 400;

/**
 * The value once it has stopped changing for `ms`: what a preview or a count asks the server about,
 * so a call goes per pause in typing, not per keystroke. Values are compared by their JSON, so an
 * object made afresh on each render with the same contents does not restart the wait.
 */
export function useDebounced<T>(value: T, ms = TYPING_PAUSE_MS): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState({ key, value });
  // `value` is read through `key`: the same contents are the same value.
  // biome-ignore lint/correctness/useExhaustiveDependencies: compared by contents, above
  useEffect(() => {
    if (key === settled.key) return;
    const id = setTimeout(() => setSettled({ key, value }), ms);
    return () => clearTimeout(id);
  }, [key, ms, settled.key]);
  return settled.value;
}
