import type { TAnswerValue } from './answers';
import {
  AWAITING_CLIENT,
  type TItemKind,
  type TRequestDisplayStatus,
  type TRequestStatus,
  type TReviewState,
} from './constants';
import type { TItemCondition } from './items';

// What a request's items add up to, the same on the server (which decides) and on the screens
// (which show it): which items are shown, which count as done, "7 of 12", when the client may
// submit, and Overdue.

export type TRuleItem = {
  key: string;
  kind: TItemKind;
  required: boolean;
  condition: TItemCondition | null;
  value: TAnswerValue;
  fileCount: number;
  notApplicable: boolean;
  review: TReviewState;
};

/**
 * The items the client is asked, in order: one with a condition shows only when the item it names
 * shows and has that answer (so a whole branch hides with its root).
 */
export function shownItems<T extends TRuleItem>(items: readonly T[]): T[] {
  const shown = new Map<string, T>();
  const out: T[] = [];
  for (const item of items) {
    const c = item.condition;
    if (c) {
      const on = shown.get(c.key);
      if (!on || on.notApplicable || on.value !== c.equals) continue;
    }
    shown.set(item.key, item);
    out.push(item);
  }
  return out;
}

/** Has an answer of its kind (files for a file item, the tick for an acknowledgement). */
export function hasAnswer(item: Pick<TRuleItem, 'kind' | 'value' | 'fileCount'>): boolean {
  if (item.kind === 'file') return item.fileCount > 0;
  if (item.kind === 'acknowledgement') return item.value === true;
  return item.value !== null && item.value !== '';
}

/** Done from the client's side: answered or marked not applicable, and not returned to fix. */
export function isDone(item: TRuleItem): boolean {
  if (item.review === 'returned') return false;
  return item.notApplicable || hasAnswer(item);
}

/** "7 of 12": the shown items done, of the shown items. */
export function progressOf(items: readonly TRuleItem[]): { done: number; total: number } {
  const shown = shownItems(items);
  return { done: shown.filter(isDone).length, total: shown.length };
}

/** The shown required items still to do (returned ones included, optional or not). */
export function outstandingItems<T extends TRuleItem>(items: readonly T[]): T[] {
  return shownItems(items).filter((item) => !isDone(item) && (item.required || item.review === 'returned'));
}

/** The client may change answers while the request waits on them. */
export const clientMayAnswer = (status: TRequestStatus) =>
  (AWAITING_CLIENT as readonly string[]).includes(status);

/** Why the client cannot submit yet, or null when they can. */
export function submitBlocker(status: TRequestStatus, items: readonly TRuleItem[]): string | null {
  if (!clientMayAnswer(status)) return 'This request is not waiting on you';
  const left = outstandingItems(items).length;
  if (left) return `${left} required item${left === 1 ? ' is' : 's are'} still to answer`;
  return null;
}

/** The stored status, or Overdue when it still waits on the client after its due date. */
export function requestDisplayStatus(
  request: { status: TRequestStatus; dueDate: string | null },
  today: string,
): TRequestDisplayStatus {
  const waiting = (AWAITING_CLIENT as readonly string[]).includes(request.status);
  return waiting && request.dueDate !== null && request.dueDate < today ? 'overdue' : request.status;
}
