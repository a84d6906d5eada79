import { z } from 'zod';
import { zString } from './fields';
import { ALL_PERMISSIONS, type SPECIAL_PERMISSIONS, type TArea, type TPermission } from './permissions';

/** The seeded role that carries every right; nobody edits or deletes it. */
export const OWNER_ROLE_NAME = 'Owner';

/**
 * The rights a role grants. The Owner role grants every right there is, including those added
 * after the firm was created, whatever its stored list says (as the owner's own checks do:
 * hasPermission).
 */
export function roleGrants(role: { name: string; permissions: readonly string[] }): string[] {
  return role.name === OWNER_ROLE_NAME ? [...ALL_PERMISSIONS] : [...role.permissions];
}

export const ROLE_NAME_MAX = 60;
export const ROLE_DESCRIPTION_MAX = 300;

const ZPermissionKey = z.enum(ALL_PERMISSIONS as [TPermission, ...TPermission[]], {
  error: 'Choose rights from the list',
});

export const ZRoleInput = z.object({
  name: zString()
    .trim()
    .min(1, 'Give the role a name')
    .max(ROLE_NAME_MAX, `A role name can be at most ${ROLE_NAME_MAX} characters`),
  description: zString()
    .trim()
    .max(ROLE_DESCRIPTION_MAX, `A description can be at most ${ROLE_DESCRIPTION_MAX} characters`)
    .default(''),
  permissions: z
    .array(ZPermissionKey)
    .max(ALL_PERMISSIONS.length)
    .transform((keys) => ALL_PERMISSIONS.filter((key) => keys.includes(key))),
  assignedClientsOnly: z.boolean().default(false),
});
export type TRoleInput = z.input<typeof ZRoleInput>;
export type TRoleValues = z.output<typeof ZRoleInput>;

export const ZRoleId = z.object({ id: z.uuid('That role does not exist') });
export const ZRoleUpdate = ZRoleInput.extend({ id: z.uuid('That role does not exist') });
export type TRoleUpdate = z.output<typeof ZRoleUpdate>;

/** How each area reads in the permission matrix. */
export const AREA_LABELS: Record<TArea, string> = {
  clients: 'Clients',
  clientGroups: 'Client groups',
  services: 'Services',
  projects: 'Projects',
  tasks: 'Tasks',
  reminders: 'Reminders',
  documents: 'Documents',
  vault: 'Password vault',
  team: 'Team',
  timesheets: 'Timesheets',
  leaves: 'Leaves',
  reports: 'Reports',
  broadcasts: 'Broadcasts',
  templates: 'Templates',
  roles: 'Roles',
  settings: 'Firm settings',
  systemLog: 'System log',
};

/** The rights that are not an area × action pair, in plain words. */
export const SPECIAL_PERMISSION_LABELS: Record<
  (typeof SPECIAL_PERMISSIONS)[number],
  { label: string; hint: string }
> = {
  'vault.reveal': {
    label: 'Reveal vault passwords',
    hint: 'See the passwords stored in the vault; every reveal is written to the system log',
  },
  'leaves.approve': { label: 'Approve leaves', hint: "Approve or reject other members' leave requests" },
  'clients.all': {
    label: 'See all clients',
    hint: 'Without it, a member sees only the clients they are assigned to',
  },
  'settings.billing': {
    label: 'Manage billing settings',
    hint: "Change the firm's billing-relevant settings",
  },
  'timesheets.approve': {
    label: 'Approve timesheets',
    hint: "See the team's timesheets, approve or send back weeks, and change entries after approval",
  },
  'timesheets.rates': {
    label: 'See rates and amounts',
    hint: 'See and set cost and billing rates, and the money value of time',
  },
  'billing.view': {
    label: 'See billing',
    hint: 'See work in progress, invoices, payments, receivables and the billing report',
  },
  'billing.manage': {
    label: 'Raise invoices',
    hint: 'Make, edit, issue, send and void invoices and credit notes; record disbursements',
  },
  'billing.collect': {
    label: 'Record payments',
    hint: "Record, allocate, refund and reverse clients' payments; pause payment reminders",
  },
  'requests.view': {
    label: 'See client requests',
    hint: 'See what the firm asked its clients for, their answers and files',
  },
  'requests.manage': {
    label: 'Send client requests',
    hint: 'Edit request templates; send, review, complete and cancel requests to clients',
  },
  'proposals.manage': {
    label: 'Send proposals',
    hint: 'Edit proposal templates; write, send and withdraw proposals and engagement letters',
  },
  'automations.manage': {
    label: 'Manage automations',
    hint: 'Write rules that move projects between stages, create tasks, notify and bill on their own; switch them on and off',
  },
  'broadcasts.send': {
    label: 'Send broadcasts',
    hint: "Mail the firm's clients in bulk; pause, resume, cancel and retry broadcasts; set the sending pace",
  },
};
