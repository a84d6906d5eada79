import { z } from 'zod';
import { zInt, zString } from './fields';
import { formatMinutes, parseDuration } from './timesheets';

// Hours budgets on projects, tasks and their templates. Kept in whole minutes like every time in the
// product; typed as hours the way the timesheet takes them ("40", "12:30", "7.5", "90m").

/** Ten thousand hours: far more than any one piece of work, and a typo's ceiling. */
export const MAX_BUDGET_MINUTES = 10_000 * 60;
export const BUDGET_HELP = 'Type hours like 40, 12:30 or 7.5';
const BUDGET_TOO_LARGE = 'A budget is at most 10,000 hours';

/**
 * Minutes from typed hours. The timesheet's own parser reads a day's shapes ("1:30", "1.5", "90m",
 * "1h 30m") but stops at two-digit hours; a budget runs to hundreds of hours, so whole and decimal
 * hours and h:mm take up to five digits here. Blank is null (no budget); unreadable is undefined.
 */
export function parseBudget(input: string): number | null | undefined {
  const text = input.trim().toLowerCase();
  if (text === '') return null;
  let m = /^(\d{1,5}):([0-5]\d)$/.exec(text);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(\d{1,5})(?:[.,](\d{1,2}))?\s*h?$/.exec(text);
  if (m) return Math.round(Number(`${m[1]}.${m[2] ?? '0'}`) * 60);
  return parseDuration(text) ?? undefined;
}

/** "12:30" for a budget field's value; empty for none. */
export const budgetText = (minutes: number | null | undefined) => (minutes ? formatMinutes(minutes) : '');

/** A log line's words for a budget change: "hours budget 10:00 → 1:45" ("none" for no budget). */
export const budgetChange = (change: { from?: unknown; to?: unknown } | undefined) =>
  change
    ? `hours budget ${budgetText(change.from as number | null) || 'none'} → ${budgetText(change.to as number | null) || 'none'}`
    : '';

/** The changed fields of a log line, a budget change in words. */
export const changedFields = (changes: Record<string, { from?: unknown; to?: unknown }>) =>
  Object.keys(changes)
    .map((k) => (k === 'budgetMinutes' ? budgetChange(changes[k]) : k))
    .join(', ');

/**
 * An optional budget: minutes as a number, or hours as typed; blank or null is no budget. The form
 * and the procedure share it, so "12:30" means the same on both sides.
 */
export const ZBudget = z
  .union([zInt(), zString().max(20, BUDGET_HELP)])
  .nullish()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    const minutes = typeof value === 'number' ? value : parseBudget(value);
    if (minutes === undefined) {
      ctx.addIssue({ code: 'custom', message: BUDGET_HELP });
      return z.NEVER;
    }
    if (minutes !== null && minutes < 0) {
      ctx.addIssue({ code: 'custom', message: 'A budget cannot be negative' });
      return z.NEVER;
    }
    if (minutes !== null && minutes > MAX_BUDGET_MINUTES) {
      ctx.addIssue({ code: 'custom', message: BUDGET_TOO_LARGE });
      return z.NEVER;
    }
    // A budget of nothing is no budget: it could only ever read "over".
    return minutes || null;
  });

// ---- thresholds ------------------------------------------------------------------------------------

/** The shares of a budget that notify when logged time reaches them. */
export const BUDGET_THRESHOLDS = [80, 100] as const;
export type TBudgetLevel = 0 | (typeof BUDGET_THRESHOLDS)[number];

/** The highest threshold the logged time has reached (0: none, or no budget). */
export function budgetLevel(actualMinutes: number, budgetMinutes: number | null): TBudgetLevel {
  if (!budgetMinutes || budgetMinutes <= 0) return 0;
  let level: TBudgetLevel = 0;
  for (const t of BUDGET_THRESHOLDS) if (actualMinutes * 100 >= budgetMinutes * t) level = t;
  return level;
}

/**
 * What a change of logged time does to a budget's notice state. `notified` is the level last
 * announced. Reaching a higher level announces it (only the highest, when one change passes both);
 * falling below a level forgets it, so crossing it again announces it again.
 */
export function budgetCrossing(
  notified: number,
  actualMinutes: number,
  budgetMinutes: number | null,
): { level: TBudgetLevel; notice: TBudgetLevel | null } {
  const level = budgetLevel(actualMinutes, budgetMinutes);
  return { level, notice: level > notified ? level : null };
}

/** The share of the budget used, in whole percent (null without a budget). */
export function budgetShare(actualMinutes: number, budgetMinutes: number | null): number | null {
  if (!budgetMinutes) return null;
  return Math.round((actualMinutes * 100) / budgetMinutes);
}
