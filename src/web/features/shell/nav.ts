import type { TPermission } from '@domain/permissions';
import { Building2, House, type LucideIcon } from 'lucide-react';

export type TNavItem = { to: string; label: string; icon: LucideIcon; permission?: TPermission };
export type TNavGroup = { label: string; items: TNavItem[] };

/**
 * The sidebar, grouped as SPEC.md §1 groups the areas. A feature adds its entry here when its
 * screens exist, so no entry ever leads to a placeholder.
 */
export const MAIN_NAV: TNavGroup[] = [
  { label: 'Practice', items: [{ to: '/', label: 'Home', icon: House }] },
];

/** The admin area, shown apart at the foot of the sidebar. */
export const ADMIN_NAV: TNavItem[] = [
  { to: '/admin/settings/org', label: 'Firm settings', icon: Building2, permission: 'settings.view' },
];
