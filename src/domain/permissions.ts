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
