/** A string is a valid link only if it parses as an absolute URL (SPEC.md §5). */
export function isValidLink(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  return URL.canParse(value);
}
