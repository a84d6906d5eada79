// The characters no text field accepts, without zod: fields.ts builds every string schema on it, and
// the route checks of the first page (a tag in the path) use it directly.

/** The message for a NUL or a lone surrogate (the field it is in is named in `fieldErrors`). */
export const NOT_ALLOWED_CHARACTER = 'This text contains a character that is not allowed';

/** NUL (PostgreSQL text cannot hold it) and a surrogate half without its pair (not valid UTF-8). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses.
const FORBIDDEN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the text holds a character no field accepts. */
export function hasForbiddenCharacter(value: string): boolean {
  return FORBIDDEN.test(value);
}
