import type { TPermission } from './permissions';

export type TAdminSection = {
  key:
    | 'roles'
    | 'systemLog'
    | 'settings'
    | 'billingSettings'
    | 'services'
    | 'clientGroups'
    | 'projectTemplates'
    | 'leaveTypes'
    | 'holidays'
    | 'broadcasts'
    | 'broadcastTemplates'
    | 'requestTemplates'
    | 'proposalTemplates'
    | 'automations';
  to: string;
  permission: TPermission;
};

/** The admin area's sections and the right that opens each; /admin lists those a member may open. */
export const ADMIN_SECTIONS: readonly TAdminSection[] = [
  { key: 'roles', to: '/admin/roles', permission: 'roles.view' },
  { key: 'systemLog', to: '/admin/systemlog', permission: 'systemLog.view' },
  { key: 'settings', to: '/admin/settings/org', permission: 'settings.view' },
  { key: 'billingSettings', to: '/admin/settings/billing', permission: 'settings.billing' },
  { key: 'services', to: '/admin/services', permission: 'services.view' },
  { key: 'clientGroups', to: '/admin/clientgroups', permission: 'clientGroups.view' },
  { key: 'projectTemplates', to: '/admin/templates/projects', permission: 'templates.view' },
  { key: 'broadcasts', to: '/admin/broadcasts', permission: 'broadcasts.view' },
  { key: 'broadcastTemplates', to: '/admin/templates/broadcasts', permission: 'templates.view' },
  { key: 'requestTemplates', to: '/admin/templates/requests', permission: 'requests.view' },
  { key: 'proposalTemplates', to: '/admin/templates/proposals', permission: 'proposals.manage' },
  { key: 'automations', to: '/admin/automations', permission: 'automations.manage' },
  // Staff read leave set-up to apply for leave: only those who change it find it in the admin area.
  { key: 'leaveTypes', to: '/admin/hrms/leaves', permission: 'leaves.edit' },
  { key: 'holidays', to: '/admin/hrms/holidays', permission: 'leaves.edit' },
];

/** Any one of these shows the Admin entry in the sidebar. */
export const ADMIN_PERMISSIONS: readonly TPermission[] = ADMIN_SECTIONS.map((s) => s.permission);
