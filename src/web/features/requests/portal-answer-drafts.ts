import type { TAnswerValue } from '@domain/requests/answers';

// Answers typed in the portal and not yet saved, kept in this browser until the server has them:
// a tab closed (or a connection dropped) between a keystroke and its save loses nothing, and the
// answer is saved when the request is opened again. Keyed by request and item, so another request
// or another person's portal never reads it; cleared once the save lands.

const keyOf = (requestId: string, itemId: string) => `request-answer:${requestId}:${itemId}`;

export function readAnswerDraft(requestId: string, itemId: string): TAnswerValue | undefined {
  try {
    const raw = window.localStorage.getItem(keyOf(requestId, itemId));
    if (raw === null) return undefined;
    const parsed: unknown = JSON.parse(raw);
    return parsed === null || ['string', 'number', 'boolean'].includes(typeof parsed)
      ? (parsed as TAnswerValue)
      : undefined;
  } catch {
    return undefined;
  }
}

export function writeAnswerDraft(requestId: string, itemId: string, value: TAnswerValue) {
  try {
    window.localStorage.setItem(keyOf(requestId, itemId), JSON.stringify(value));
  } catch {
    // Private mode or a full store: the save itself still goes.
  }
}

/** Forgets the draft once the server holds `saved` (a newer draft typed meanwhile stays). */
export function clearAnswerDraft(requestId: string, itemId: string, saved: TAnswerValue) {
  try {
    const key = keyOf(requestId, itemId);
    if (window.localStorage.getItem(key) === JSON.stringify(saved)) window.localStorage.removeItem(key);
  } catch {
    // Nothing to clear.
  }
}
