import { hasPermission } from '@domain/permissions';
import { Link } from '@tanstack/react-router';
import { BrandMark } from '../../ui/brand-mark';
import { ADMIN_NAV, MAIN_NAV, type TNavItem } from './nav';
import type { TProfileView } from './use-profile';

function visible(items: TNavItem[], profile: TProfileView): TNavItem[] {
  const granted = { isOwner: profile.isOwner, permissions: profile.permissions };
  return items.filter((item) => {
    if (!item.permission) return true;
    const any = typeof item.permission === 'string' ? [item.permission] : item.permission;
    return any.some((permission) => hasPermission(granted, permission));
  });
}

function NavLink({ item, onNavigate }: { item: TNavItem; onNavigate?: () => void }) {
  const Icon = item.icon;
  return (
    <Link
      to={item.to}
      params={item.params}
      onClick={onNavigate}
      activeOptions={{ exact: item.to === '/' }}
      className="flex items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-fg hover:bg-muted hover:text-fg data-[status=active]:bg-muted data-[status=active]:font-medium data-[status=active]:text-fg"
    >
      <Icon aria-hidden className="size-4 shrink-0" />
      {item.label}
    </Link>
  );
}

export function Sidebar({ profile, onNavigate }: { profile: TProfileView; onNavigate?: () => void }) {
  const admin = visible(ADMIN_NAV, profile);
  return (
    <nav aria-label="Main" className="flex h-full flex-col gap-6 overflow-y-auto p-3">
      {/* A firm's name runs long ("Sharma & Associates, Chartered Accountants"): two lines, then the
          rest on hover. */}
      <div className="flex items-center gap-2 px-3 pt-1">
        <BrandMark className="size-7 shrink-0" />
        <span
          title={profile.org.name}
          className="line-clamp-2 min-w-0 break-words font-semibold leading-snug"
        >
          {profile.org.name}
        </span>
      </div>
      {MAIN_NAV.map((group) => {
        const items = visible(group.items, profile);
        if (items.length === 0) return null;
        return (
          <div key={group.label} className="flex flex-col gap-1">
            <h2 className="px-3 text-xs font-medium uppercase tracking-wide text-muted-fg">{group.label}</h2>
            {items.map((item) => (
              <NavLink key={item.to} item={item} onNavigate={onNavigate} />
            ))}
          </div>
        );
      })}
      {admin.length > 0 && (
        <div className="mt-auto flex flex-col gap-1 border-t border-border pt-3">
          <h2 className="px-3 text-xs font-medium uppercase tracking-wide text-muted-fg">Admin</h2>
          {admin.map((item) => (
            <NavLink key={item.to} item={item} onNavigate={onNavigate} />
          ))}
        </div>
      )}
    </nav>
  );
}
