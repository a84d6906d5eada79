import { z } from 'zod';
import {
  ARCHIVED_FILTERS,
  CLIENT_SORTS,
  CLIENT_STATUSES,
  CLIENT_TYPES,
  type TClientType,
} from './clients-constants';
import { zString } from './fields';
import { ZLocation } from './location';
import { ZPageInput } from './pagination';
import { checkTaxIds, MAX_TAX_IDS, ZTaxId } from './settings';

export {
  ARCHIVED_FILTERS,
  CLIENT_SORTS,
  CLIENT_STATUSES,
  CLIENT_TYPES,
  type TClientStatus,
  type TClientType,
} from './clients-constants';

// Clients of the firm (/clients, /clients/{id}): the same schemas check the forms and the procedures.

export const CLIENT_TYPE_LABELS: Record<TClientType, string> = {
  individual: 'Individual',
  proprietor: 'Proprietor',
  partnership: 'Partnership',
  llp: 'LLP',
  company: 'Company',
  trust: 'Trust',
  huf: 'HUF',
  other: 'Other',
};

export const MAX_TAGS = 20;
export const MAX_BULK = 500;

/** Optional text: blank becomes null so "cleared" and "never set" read the same. */
const optionalText = (label: string, max: number) =>
  zString()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZClientCode = zString()
  .trim()
  .min(1, 'Enter a client code')
  .max(20, 'Client code must be at most 20 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, dashes and underscores only in the code');

export const ZTag = zString()
  .trim()
  .toLowerCase()
  .min(1, 'A tag cannot be blank')
  .max(40, 'A tag must be at most 40 characters');

const ZOptionalEmail = zString()
  .trim()
  .toLowerCase()
  .max(254, 'Email address is too long')
  .nullish()
  .transform((v) => (v ? v : null))
  .pipe(z.email('Enter a valid email address').nullable());

const ZClientFields = z.object({
  code: ZClientCode,
  name: zString()
    .trim()
    .min(2, 'Client name must be at least 2 characters')
    .max(200, 'Client name is too long'),
  type: z.enum(CLIENT_TYPES, 'Choose a client type').default('individual'),
  groupId: z
    .uuid('Choose a group from the list')
    .nullish()
    .transform((v) => v ?? null),
  email: ZOptionalEmail,
  phone: optionalText('Phone', 40).pipe(
    zString()
      .regex(/^[0-9+()\-. ]+$/, 'Use digits, spaces and + ( ) - . only in the phone number')
      .nullable(),
  ),
  addressLine1: optionalText('Address line 1', 200),
  addressLine2: optionalText('Address line 2', 200),
  city: optionalText('City', 100),
  region: optionalText('Region or state', 100),
  postalCode: optionalText('Postal code', 20),
  country: zString()
    .trim()
    .nullish()
    .transform((v) => (v ? v.toUpperCase() : null))
    .pipe(
      zString()
        .regex(/^[A-Z]{2}$/, 'Choose a country')
        .nullable(),
    ),
  location: ZLocation.nullish().transform((v) => v ?? null),
  taxIds: z.array(ZTaxId).max(MAX_TAX_IDS, `At most ${MAX_TAX_IDS} tax identifiers`).default([]),
  tags: z
    .array(ZTag)
    .max(MAX_TAGS, `At most ${MAX_TAGS} tags`)
    .default([])
    .transform((tags) => [...new Set(tags)]),
  status: z.enum(CLIENT_STATUSES, 'Choose a status').default('active'),
  /** A prospect (proposals, issue 37): left out, an edit keeps what the client was. */
  prospect: z.boolean().optional(),
  notes: optionalText('Notes', 5000),
});
export const ZClientInput = ZClientFields.superRefine(checkTaxIds);
/** A new client, with the members put on its team at once (the same transaction). */
export const ZClientCreate = ZClientFields.extend({
  teamMemberIds: z
    .array(z.uuid('Choose a member'))
    .max(50, 'At most 50 team members')
    .default([])
    .transform((ids) => [...new Set(ids)]),
}).superRefine(checkTaxIds);
export type TClientCreate = z.output<typeof ZClientCreate>;
export type TClientFormInput = z.input<typeof ZClientInput>;
export type TClientInput = z.output<typeof ZClientInput>;

export const ZClientRef = z.object({ clientId: z.uuid('Choose a client from the list') });
export const ZClientUpdate = z.object({
  clientId: z.uuid('Choose a client from the list'),
  data: ZClientInput,
});
export type TClientUpdate = z.output<typeof ZClientUpdate>;

/** An opaque keyset cursor: the last row's sort value and id, base64url JSON. */
export const ZClientCursor = zString()
  .max(600, 'This page link is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'This page link is not valid');

export const ZClientListInput = ZPageInput.extend({
  sort: z.enum(CLIENT_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  type: z.enum(CLIENT_TYPES).optional(),
  groupId: z.uuid('Choose a group from the list').optional(),
  serviceId: z.uuid('Choose a service from the list').optional(),
  memberId: z.uuid('Choose a member from the list').optional(),
  status: z.enum(CLIENT_STATUSES).optional(),
  tags: z.array(ZTag).max(MAX_TAGS).optional(),
  archived: z.enum(ARCHIVED_FILTERS).default('hide'),
  /** Prospects (not yet engaged) are left out unless asked for. */
  prospects: z.enum(ARCHIVED_FILTERS).default('hide'),
  /** When given, the page after this cursor (keyset); `page` is then ignored. Not with a search. */
  cursor: ZClientCursor.optional(),
});
export type TClientListInput = z.input<typeof ZClientListInput>;
export type TClientListQuery = z.output<typeof ZClientListInput>;

export type TCursorValue = { v: string; id: string };
export function encodeCursor(value: TCursorValue): string {
  const json = JSON.stringify(value);
  const b64 = btoa(unescape(encodeURIComponent(json)));
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function decodeCursor(cursor: string): TCursorValue | null {
  try {
    const b64 = cursor.replace(/-/g, '+').replace(/_/g, '/');
    const parsed = JSON.parse(decodeURIComponent(escape(atob(b64))));
    return z.object({ v: zString(), id: z.uuid() }).parse(parsed);
  } catch {
    return null;
  }
}

export const BULK_ACTIONS = ['assignMember', 'setGroup', 'addTag', 'removeTag', 'setStatus'] as const;
export const ZClientBulk = z.object({
  ids: z
    .array(z.uuid('Choose clients from the list'))
    .min(1, 'Choose at least one client')
    .max(MAX_BULK, `Choose at most ${MAX_BULK} clients at a time`),
  action: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('assignMember'), memberId: z.uuid('Choose a member') }),
    z.object({ kind: z.literal('setGroup'), groupId: z.uuid('Choose a group').nullable() }),
    z.object({ kind: z.literal('addTag'), tag: ZTag }),
    z.object({ kind: z.literal('removeTag'), tag: ZTag }),
    z.object({ kind: z.literal('setStatus'), status: z.enum(CLIENT_STATUSES, 'Choose a status') }),
  ]),
});
export type TClientBulk = z.output<typeof ZClientBulk>;

export const ZResponsibility = zString()
  .trim()
  .max(80, 'Responsibility must be at most 80 characters')
  .nullish()
  .transform((v) => (v ? v : null));
export const ZClientTeamAdd = z.object({
  clientId: z.uuid('Choose a client from the list'),
  memberId: z.uuid('Choose a member'),
  responsibility: ZResponsibility,
});
export const ZClientTeamRemove = z.object({
  clientId: z.uuid('Choose a client from the list'),
  memberId: z.uuid('Choose a member'),
});
export const RESPONSIBILITIES = ['Partner in charge', 'Manager', 'Preparer', 'Reviewer'] as const;

/**
 * Codes the firm did not choose (import rows without one, the New client form's proposal): "C" and
 * digits, one past the highest such code among these, as wide as that code (C000300 → C000301);
 * C00001 when there is none. A generator, for an import numbering many rows.
 */
export const GENERATED_CODE = /^C(\d{1,12})$/i;
const FIRST_CODE_WIDTH = 5;
export function clientCodeSequence(codes: Iterable<string | null | undefined>): () => string {
  let last = 0;
  let width = FIRST_CODE_WIDTH;
  let seen = false;
  for (const code of codes) {
    const digits = code ? GENERATED_CODE.exec(code.trim())?.[1] : undefined;
    if (!digits) continue;
    const n = Number(digits);
    if (!seen || n > last) {
      last = n;
      width = digits.length;
      seen = true;
    } else if (n === last) width = Math.max(width, digits.length);
  }
  return () => `C${String(++last).padStart(width, '0')}`;
}
export const nextClientCode = (codes: Iterable<string | null | undefined>) => clientCodeSequence(codes)();
