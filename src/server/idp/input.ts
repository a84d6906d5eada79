import { hasForbiddenCharacter } from '../../domain/fields';
import type { TBody, TIdpContext } from './deps';
import { invalidParameter, resourceNotFound } from './errors';

// Field checks with AWS's validation wording; a bad field (the wrong type, a NUL or a lone surrogate,
// too long) is InvalidParameterException, never a 500.

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const NOT_ALLOWED = 'Member contains a character that is not allowed';

const constraint = (field: string, what: string) =>
  invalidParameter(
    `1 validation error detected: Value at '${lowerFirst(field)}' failed to satisfy constraint: ${what}`,
  );

export function optString(body: TBody, field: string, max = 2048): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw constraint(field, 'Member must be a string');
  if (hasForbiddenCharacter(value)) throw constraint(field, NOT_ALLOWED);
  if (value.length > max) throw constraint(field, `Member must have length less than or equal to ${max}`);
  return value;
}

export function reqString(body: TBody, field: string, max = 2048): string {
  const value = optString(body, field, max);
  if (value === undefined) throw constraint(field, 'Member must not be null');
  if (value === '') throw constraint(field, 'Member must have length greater than or equal to 1');
  return value;
}

export function optRecord(body: TBody, field: string): Record<string, string> {
  const value = body[field];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw constraint(field, 'Member must be a map');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw constraint(`${field}.${k}`, 'Member must be a string');
    if (hasForbiddenCharacter(k) || hasForbiddenCharacter(v)) throw constraint(field, NOT_ALLOWED);
    if (k.length > 256 || v.length > 4096)
      throw constraint(field, 'Member must have length less than or equal to 4096');
    out[k] = v;
  }
  return out;
}

export function optInteger(body: TBody, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw constraint(field, 'Member must be an integer');
  if (value < min) throw constraint(field, `Member must have value greater than or equal to ${min}`);
  if (value > max) throw constraint(field, `Member must have value less than or equal to ${max}`);
  return value;
}

export type TAttribute = { Name: string; Value: string };

export function attributeList(body: TBody, field: string, required = false): TAttribute[] {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw constraint(field, 'Member must not be null');
    return [];
  }
  if (!Array.isArray(value)) throw constraint(field, 'Member must be a list');
  if (value.length > 100) throw constraint(field, 'Member must have length less than or equal to 100');
  return value.map((item) => {
    const a = item as TBody;
    if (typeof a !== 'object' || a === null) throw constraint(field, 'Member must be a list of objects');
    return { Name: reqString(a, 'Name', 32), Value: optString(a, 'Value', 2048) ?? '' };
  });
}

export function stringList(body: TBody, field: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) throw constraint(field, 'Member must not be null');
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw constraint(field, 'Member must be a list of strings');
  if (value.some((v) => hasForbiddenCharacter(v as string))) throw constraint(field, NOT_ALLOWED);
  if (value.length > 100) throw constraint(field, 'Member must have length less than or equal to 100');
  return value as string[];
}

/** The app client must be ours. */
export function checkClient(ctx: TIdpContext, body: TBody): void {
  const clientId = reqString(body, 'ClientId', 128);
  if (clientId !== ctx.config.idp.clientId)
    throw resourceNotFound(`User pool client ${clientId} does not exist.`);
}
