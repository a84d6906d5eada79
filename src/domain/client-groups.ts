import { z } from 'zod';
import { zNumber, zString } from './fields';
import { ZPageInput } from './pagination';

// Client groups (/admin/clientgroups): a family or a business group of clients.

const optionalText = (max: number, label: string) =>
  zString()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZClientGroupInput = z.object({
  name: zString().trim().min(1, 'Enter the group name').max(120, 'Name must be at most 120 characters'),
  description: optionalText(2000, 'Description'),
});
export type TClientGroupInput = z.input<typeof ZClientGroupInput>;

export const ZClientGroupRef = z.object({ groupId: z.uuid('Choose a group from the list') });
export const ZClientGroupUpdate = ZClientGroupInput.extend({
  groupId: z.uuid('Choose a group from the list'),
});

export const ZClientGroupListInput = ZPageInput.extend({
  sort: z.enum(['name', 'clients']).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export type TClientGroupListQuery = z.output<typeof ZClientGroupListInput>;

export const ZClientGroupGetInput = ZPageInput.pick({ page: true, pageSize: true, search: true }).extend({
  groupId: z.uuid('Choose a group from the list'),
});
export type TClientGroupGetQuery = z.output<typeof ZClientGroupGetInput>;

export const ZClientGroupMembers = z.object({
  groupId: z.uuid('Choose a group from the list'),
  clientIds: z
    .array(z.uuid('Choose clients from the list'))
    .min(1, 'Choose at least one client')
    .max(500, 'Choose at most 500 clients at a time'),
});

/** The picker's search for clients to add to a group (until the clients list ships). */
export const ZClientCandidatesInput = z.object({
  groupId: z.uuid('Choose a group from the list'),
  search: zString().trim().max(200, 'Search must be at most 200 characters').default(''),
  limit: zNumber().int().min(1).max(50).default(20),
});
