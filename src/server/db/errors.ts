import { TRPCError } from '@trpc/server';

/** A unique-index violation (code 23505), wherever the driver or drizzle put it in the cause chain. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * A data exception (SQLSTATE class 22: an untranslatable character, a date or number out of range,
 * text that is not the column's type): the input was wrong, not the server.
 */
export function isDataException(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 10;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

export const INVALID_VALUES_MESSAGE = 'Some of the values sent are not valid';

/** A database error the input caused, as the answer a person sees; null for anything else. */
export function inputErrorOf(error: unknown): TRPCError | null {
  if (!isDataException(error)) return null;
  return new TRPCError({ code: 'BAD_REQUEST', message: INVALID_VALUES_MESSAGE, cause: error });
}
