import { formatDistance, isValid } from 'date-fns';

/** A date relative to now ("in 3 days", "2 hours ago") when valid, otherwise a dash (SPEC.md §5). */
export function relativeDate(
  value: Date | string | number | null | undefined,
  now: Date = new Date(),
): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = value instanceof Date ? value : new Date(value);
  if (!isValid(date)) return '-';
  return formatDistance(date, now, { addSuffix: true });
}
