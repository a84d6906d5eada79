import { ADMIN_PERMISSIONS } from '@domain/admin';
import type { TPermission } from '@domain/permissions';
import type { ToOptions } from '@tanstack/react-router';
import {
  Banknote,
  BarChart3,
  BellRing,
  Briefcase,
  BriefcaseBusiness,
  Building2,
  CalendarCheck,
  CalendarClock,
  CalendarDays,
  CalendarHeart,
  ClipboardList,
  Clock,
  FileSignature,
  FolderKanban,
  FolderOpen,
  Hourglass,
  House,
  KeyRound,
  LayoutTemplate,
  ListChecks,
  LockKeyhole,
  type LucideIcon,
  Mail,
  Megaphone,
  MessagesSquare,
  ReceiptText,
  Scale,
  ShieldCheck,
  Users,
  UsersRound,
  Webhook,
  Workflow,
} from 'lucide-react';

export type TNavItem = {
  /** A route of the route tree, with its params, if any: typed, so a renamed route breaks the build. */
  to: NonNullable<ToOptions['to']>;
  params?: ToOptions['params'];
  label: string;
  icon: LucideIcon;
  /** The right that shows the entry; a list shows it for any one of them. */
  permission?: TPermission | readonly TPermission[];
};
export type TNavGroup = { label: string; items: TNavItem[] };

/**
 * The sidebar, grouped as SPEC.md §1 groups the areas. A feature adds its entry here when its
 * screens exist, so no entry ever leads to a placeholder.
 */
export const MAIN_NAV: TNavGroup[] = [
  {
    label: 'Practice',
    items: [
      { to: '/', label: 'Home', icon: House },
      { to: '/clients', label: 'Clients', icon: BriefcaseBusiness, permission: 'clients.view' },
      { to: '/projects', label: 'Projects', icon: FolderKanban, permission: 'projects.view' },
      { to: '/tasks', label: 'Tasks', icon: ListChecks, permission: 'tasks.view' },
      { to: '/requests', label: 'Requests', icon: ClipboardList, permission: 'requests.view' },
      { to: '/proposals', label: 'Proposals', icon: FileSignature, permission: 'proposals.manage' },
      { to: '/messages', label: 'Messages', icon: MessagesSquare, permission: 'clients.view' },
      {
        to: '/reminders/$type',
        params: { type: 'client' },
        label: 'Reminders',
        icon: BellRing,
        permission: 'reminders.view',
      },
      { to: '/reports', label: 'Reports', icon: BarChart3, permission: 'reports.view' },
    ],
  },
  {
    // Billing's screens, in the order of the cycle: WIP, Invoices, Payments, Receivables.
    label: 'Billing',
    items: [
      { to: '/billing/wip', label: 'Work in progress', icon: Hourglass, permission: 'billing.view' },
      { to: '/billing/invoices', label: 'Invoices', icon: ReceiptText, permission: 'billing.view' },
      { to: '/billing/payments', label: 'Payments', icon: Banknote, permission: 'billing.view' },
      { to: '/billing/receivables', label: 'Receivables', icon: Scale, permission: 'billing.view' },
    ],
  },
  {
    label: 'Vault',
    items: [
      { to: '/vault/documents', label: 'Documents', icon: FolderOpen, permission: 'documents.view' },
      { to: '/vault/passwords', label: 'Passwords', icon: KeyRound, permission: 'vault.view' },
    ],
  },
  {
    label: 'Team',
    items: [
      { to: '/team/members', label: 'Members', icon: Users, permission: 'team.view' },
      {
        to: '/team/timesheets',
        label: 'Timesheets',
        icon: Clock,
        permission: ['timesheets.approve', 'timesheets.rates'],
      },
      { to: '/team/leaves', label: 'Leaves', icon: CalendarCheck, permission: 'leaves.approve' },
    ],
  },
  {
    label: 'My account',
    items: [
      { to: '/my-account/timesheet', label: 'Timesheet', icon: Clock, permission: 'timesheets.view' },
      { to: '/my-account/leaves', label: 'Leaves', icon: CalendarDays, permission: 'leaves.view' },
      { to: '/my-account/security', label: 'Security', icon: LockKeyhole },
    ],
  },
];

/** The admin area, shown apart at the foot of the sidebar. */
export const ADMIN_NAV: TNavItem[] = [
  { to: '/admin', label: 'Admin', icon: ShieldCheck, permission: ADMIN_PERMISSIONS },
  { to: '/admin/settings/org', label: 'Firm settings', icon: Building2, permission: 'settings.view' },
  {
    to: '/admin/settings/billing',
    label: 'Billing settings',
    icon: ReceiptText,
    permission: 'settings.billing',
  },
  { to: '/admin/settings/api', label: 'API keys', icon: KeyRound, permission: 'settings.edit' },
  { to: '/admin/settings/webhooks', label: 'Webhooks', icon: Webhook, permission: 'settings.edit' },
  { to: '/admin/services', label: 'Services', icon: Briefcase, permission: 'services.view' },
  { to: '/admin/statutory', label: 'Statutory calendar', icon: CalendarClock, permission: 'services.view' },
  { to: '/admin/clientgroups', label: 'Client groups', icon: UsersRound, permission: 'clientGroups.view' },
  {
    to: '/admin/templates/projects',
    label: 'Project templates',
    icon: LayoutTemplate,
    permission: 'templates.view',
  },
  {
    to: '/admin/templates/requests',
    label: 'Request templates',
    icon: ClipboardList,
    permission: 'requests.view',
  },
  {
    to: '/admin/templates/proposals',
    label: 'Proposal templates',
    icon: FileSignature,
    permission: 'proposals.manage',
  },
  { to: '/admin/automations', label: 'Automations', icon: Workflow, permission: 'automations.manage' },
  { to: '/admin/broadcasts', label: 'Broadcasts', icon: Megaphone, permission: 'broadcasts.view' },
  {
    to: '/admin/templates/broadcasts',
    label: 'Broadcast templates',
    icon: Mail,
    permission: 'templates.view',
  },
  { to: '/admin/hrms/holidays', label: 'Holidays', icon: CalendarHeart, permission: 'leaves.edit' },
  { to: '/admin/hrms/leaves', label: 'Leave types', icon: CalendarDays, permission: 'leaves.edit' },
];
