// Permission keys are data: roles store them, staff procedures declare the one they need, and the
// web app's <Can> only hides what the server would refuse anyway.

export const AREAS = [
  'clients',
  'clientGroups',
  'services',
  'projects',
  'tasks',
  'reminders',
  'documents',
  'vault',
  'team',
  'timesheets',
  'leaves',
  'reports',
  'broadcasts',
  'templates',
  'roles',
  'settings',
  'systemLog',
] as const;
export type TArea = (typeof AREAS)[number];

export const ACTIONS = ['view', 'create', 'edit', 'delete'] as const;
export type TAction = (typeof ACTIONS)[number];

/** Rights that are not an area × action pair. */
export const SPECIAL_PERMISSIONS = [
  'vault.reveal',
  'leaves.approve',
  'clients.all',
  'settings.billing',
  'timesheets.approve',
  'timesheets.rates',
  // Mailing the firm's clients in bulk is weightier than drafting a broadcast (broadcasts.create).
  'broadcasts.send',
  // Billing (issue 35): see invoices, WIP and receivables; raise, issue, send and void invoices and
  // credit notes; record and reverse payments.
  'billing.view',
  'billing.manage',
  'billing.collect',
  // Client requests (issue 36): see what the firm asked its clients for; send, review, complete.
  'requests.view',
  'requests.manage',
  // Proposals and engagement letters (issue 37): write, send, withdraw; templates and signing.
  'proposals.manage',
  // Automations (issue 41): stages' rules, switched on and off, previewed, their run history.
  'automations.manage',
] as const;

export type TPermission = `${TArea}.${TAction}` | (typeof SPECIAL_PERMISSIONS)[number];

export const ALL_PERMISSIONS: readonly TPermission[] = [
  ...AREAS.flatMap((area) => ACTIONS.map((action) => `${area}.${action}` as const)),
  ...SPECIAL_PERMISSIONS,
];

export function isPermission(value: string): value is TPermission {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** The owner keeps every right whatever their role says. */
export function hasPermission(
  granted: { isOwner: boolean; permissions: readonly string[] },
  needed: TPermission,
): boolean {
  return granted.isOwner || granted.permissions.includes(needed);
}

const all = (area: TArea): TPermission[] => ACTIONS.map((action) => `${area}.${action}` as const);
const viewOnly = (area: TArea): TPermission => `${area}.view`;

/** The roles every firm starts with; the owner may edit them (except Owner) and add more. */
export const SEEDED_ROLES: ReadonlyArray<{
  name: string;
  description: string;
  permissions: TPermission[];
  assignedClientsOnly?: boolean;
}> = [
  { name: 'Owner', description: 'Every right in the firm', permissions: [...ALL_PERMISSIONS] },
  {
    name: 'Admin',
    description: 'Runs the firm day to day: everything but billing settings',
    permissions: ALL_PERMISSIONS.filter((p) => p !== 'settings.billing'),
  },
  {
    name: 'Manager',
    description: 'Manages clients and work, approves leaves, sees reports',
    permissions: [
      ...(
        ['clients', 'clientGroups', 'projects', 'tasks', 'reminders', 'documents', 'timesheets'] as const
      ).flatMap(all),
      ...(['services', 'vault', 'team', 'leaves', 'reports', 'broadcasts', 'templates'] as const).map(
        viewOnly,
      ),
      'vault.reveal',
      // A manager takes leave too; the demo's owner had to grant this by hand.
      'leaves.create',
      'leaves.approve',
      'clients.all',
      'timesheets.approve',
      'requests.view',
      'requests.manage',
      'proposals.manage',
    ],
  },
  {
    name: 'Staff',
    description: 'Works on the clients assigned to them',
    assignedClientsOnly: true,
    permissions: [
      'clients.view',
      'projects.view',
      ...(['tasks', 'documents', 'timesheets'] as const).flatMap(
        (area) => [`${area}.view`, `${area}.create`, `${area}.edit`] as TPermission[],
      ),
      'reminders.view',
      'requests.view',
      'vault.view',
      'leaves.view',
      'leaves.create',
    ],
  },
];
