import { z } from 'zod';
import { hasForbiddenCharacter, NOT_ALLOWED_CHARACTER } from './characters';

/**
 * The building blocks every input schema in src/domain is made of: text the database can hold
 * (no NUL, no unpaired UTF-16 surrogate), dates within the years the product deals in, numbers
 * within a PostgreSQL `integer`, ids as uuids. `fields.test.ts` fails on a bare `z.string()`,
 * `z.number()`, `z.date()` or `z.coerce.*` anywhere else in src/domain.
 */

export { hasForbiddenCharacter, NOT_ALLOWED_CHARACTER };

type TStringParams = Parameters<typeof z.string>[0];

/**
 * Any string an input accepts: refuses NUL and unpaired surrogates. Chain `.trim()`, `.min()`,
 * `.max()`, `.regex()` as on `z.string()`.
 */
export const zString = (params?: TStringParams) =>
  z.string(params).refine((value) => !hasForbiddenCharacter(value), { message: NOT_ALLOWED_CHARACTER });

/**
 * A text field a person types: trimmed (unless `trim: false`, e.g. a password), at most `max`
 * characters and at least `min` (after trimming), with the field's own messages.
 */
export function zText(options: {
  max: number;
  min?: number;
  trim?: boolean;
  label?: string;
  minMessage?: string;
  maxMessage?: string;
}) {
  const label = options.label ?? 'Text';
  let schema = zString();
  if (options.trim !== false) schema = schema.trim();
  if (options.min)
    schema = schema.min(
      options.min,
      options.minMessage ??
        (options.min === 1
          ? `Enter ${label.toLowerCase()}`
          : `${label} must be at least ${options.min} characters`),
    );
  return schema.max(options.max, options.maxMessage ?? `${label} must be at most ${options.max} characters`);
}

/** The earliest and latest instants a date input may hold (the database holds far more). */
export const MIN_DATE = new Date(Date.UTC(1900, 0, 1));
export const MAX_DATE = new Date(Date.UTC(2200, 11, 31, 23, 59, 59, 999));
export const DATE_RANGE_MESSAGE = 'Choose a date between the years 1900 and 2200';

type TDateParams = Parameters<typeof z.date>[0];

/** A Date (superjson carries it) between 1900 and 2200. */
export const zDate = (params?: TDateParams) =>
  z.date(params).min(MIN_DATE, DATE_RANGE_MESSAGE).max(MAX_DATE, DATE_RANGE_MESSAGE);

/** A Date from a query string (an ISO instant) between 1900 and 2200. */
export const zCoerceDate = (params?: TDateParams) =>
  z.coerce.date(params).min(MIN_DATE, DATE_RANGE_MESSAGE).max(MAX_DATE, DATE_RANGE_MESSAGE);

/** A PostgreSQL `integer` (int4). */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
const NUMBER_RANGE_MESSAGE = 'This number is too large';

type TNumberParams = Parameters<typeof z.number>[0];

/** A finite number within an int4's range; chain `.int()`, `.min()`, `.max()` as on `z.number()`. */
export const zNumber = (params?: TNumberParams) =>
  z.number(params).min(INT4_MIN, NUMBER_RANGE_MESSAGE).max(INT4_MAX, NUMBER_RANGE_MESSAGE);

/** A whole number that fits a PostgreSQL `integer`. */
export const zInt = (params?: TNumberParams) => zNumber(params).int();

/**
 * A whole number a `bigint` column holds as a JS number (money in minor units): exact below 2^53,
 * where an int4's 2.1 billion (₹2.1 crore in paise) is too small. Chain `.min()`, `.max()`.
 */
export const zSafeInt = (params?: TNumberParams) =>
  z
    .number(params)
    .int()
    .min(Number.MIN_SAFE_INTEGER, NUMBER_RANGE_MESSAGE)
    .max(Number.MAX_SAFE_INTEGER, NUMBER_RANGE_MESSAGE);

/** A whole number from a query string that fits a PostgreSQL `integer`. */
export const zCoerceInt = (params?: TNumberParams) =>
  z.coerce.number(params).int().min(INT4_MIN, NUMBER_RANGE_MESSAGE).max(INT4_MAX, NUMBER_RANGE_MESSAGE);

/** A record's id. */
export const zId = (message?: string) => z.uuid(message);

/**
 * The words of zod's own messages, for the rules a schema left without one of its own: zod writes
 * them for programmers ("Invalid input: expected string, received undefined"), and they reach people
 * in toasts and beside fields. A schema's own message always wins over these.
 */
export function personMessage(issue: z.core.$ZodRawIssue): string {
  const many = (n: unknown, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? 'This is required'
        : 'This value is not valid';
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'This is required' : `Use at least ${many(issue.minimum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return issue.minimum === 1 ? 'Choose at least one' : `Choose at least ${issue.minimum}`;
      if (issue.origin === 'date') return DATE_RANGE_MESSAGE;
      return `Enter ${issue.inclusive === false ? 'more than' : 'at least'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `Use at most ${many(issue.maximum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Choose at most ${issue.maximum}`;
      if (issue.origin === 'date') return DATE_RANGE_MESSAGE;
      return `Enter ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'Enter a valid email address';
      if (issue.format === 'url') return 'Enter a full web address, starting with https://';
      if (issue.format === 'uuid' || issue.format === 'guid') return 'This record was not found';
      return 'This value is not in the expected form';
    case 'not_multiple_of':
      return `Enter a multiple of ${issue.divisor}`;
    case 'invalid_value':
      return 'Choose one of the options offered';
    default:
      return 'This value is not valid';
  }
}

z.config({ customError: personMessage });
