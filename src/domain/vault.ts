import { z } from 'zod';
import { MAX_TAGS, ZTag } from './clients';
import { zString } from './fields';
import { ZPageInput } from './pagination';
import { VAULT_SORTS } from './vault-constants';

export { VAULT_SORTS } from './vault-constants';

// The password vault (/vault/passwords): credentials of the firm's and its clients' portals. The
// same schemas check the form and the procedures. Passwords are never trimmed: a space can be part
// of one.

export const VAULT_PASSWORD_MAX = 1000;
/** How long a copied password stays on the clipboard before the app clears it. */
export const VAULT_CLIPBOARD_CLEAR_MS = 20_000;
/** What the system log shows in place of a password. */
export const VAULT_MASK = '••••••••';

const optionalText = (label: string, max: number) =>
  zString()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZVaultPassword = zString()
  .min(1, 'Enter the password')
  .max(VAULT_PASSWORD_MAX, `The password must be at most ${VAULT_PASSWORD_MAX} characters`);

const fields = {
  title: zString().trim().min(1, 'Enter a title').max(200, 'Title must be at most 200 characters'),
  /** null: a firm-wide entry (the firm's own portals). */
  clientId: z
    .uuid('Choose a client from the list')
    .nullish()
    .transform((v) => v ?? null),
  /** Free text: shown as a link only when it parses as an absolute URL (SPEC.md §5). */
  url: optionalText('URL', 2000),
  username: optionalText('Username', 200),
  notes: optionalText('Notes', 5000),
  tags: z
    .array(ZTag)
    .max(MAX_TAGS, `At most ${MAX_TAGS} tags`)
    .default([])
    .transform((tags) => [...new Set(tags)]),
};

export const ZVaultEntryInput = z.object({ ...fields, password: ZVaultPassword });
export type TVaultEntryFormInput = z.input<typeof ZVaultEntryInput>;
export type TVaultEntryInput = z.output<typeof ZVaultEntryInput>;

/** An edit: without a password the stored one stays as it is. */
export const ZVaultEntryChanges = z.object({
  ...fields,
  password: ZVaultPassword.nullish().transform((v) => v ?? null),
});
export type TVaultEntryChanges = z.output<typeof ZVaultEntryChanges>;

export const ZVaultRef = z.object({ id: z.uuid('This entry does not exist') });
export const ZVaultUpdate = z.object({ id: z.uuid('This entry does not exist'), data: ZVaultEntryChanges });
export type TVaultUpdate = z.output<typeof ZVaultUpdate>;

export const REVEAL_PURPOSES = ['view', 'copy'] as const;
export type TRevealPurpose = (typeof REVEAL_PURPOSES)[number];
export const ZVaultReveal = z.object({
  id: z.uuid('This entry does not exist'),
  purpose: z.enum(REVEAL_PURPOSES).default('view'),
});

/** The client filter: one client, or 'firm' for the firm-wide entries. */
export const ZVaultClientFilter = z.union([z.literal('firm'), z.uuid('Choose a client from the list')]);

export const ZVaultListInput = ZPageInput.extend({
  sort: z.enum(VAULT_SORTS).default('title'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  client: ZVaultClientFilter.optional(),
  tag: ZTag.optional(),
});
export type TVaultListInput = z.input<typeof ZVaultListInput>;
export type TVaultListQuery = z.output<typeof ZVaultListInput>;

export const ZVaultClientSearch = z.object({
  search: zString().trim().max(200, 'Search must be at most 200 characters').optional(),
});
