import { LogOut } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { signOutStaff } from '../../lib/session';
import type { TProfileView } from './use-profile';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

export function UserMenu({ profile }: { profile: TProfileView }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label={`Account menu for ${profile.fullName}`}
        className="flex items-center gap-2 rounded-full p-0.5 hover:bg-muted"
      >
        {profile.picture ? (
          <img src={profile.picture} alt="" className="size-8 rounded-full object-cover" />
        ) : (
          <span className="flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-fg">
            {initials(profile.fullName)}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-56 rounded-lg border border-border bg-surface p-1 text-sm shadow-lg"
        >
          <div className="px-3 py-2">
            <p className="font-medium">{profile.fullName}</p>
            <p className="truncate text-muted-fg">{profile.email}</p>
            <p className="mt-1 text-xs text-muted-fg">
              {profile.role.name}
              {profile.isOwner ? ' · Owner' : ''}
            </p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item
            onSelect={() => void signOutStaff()}
            className="flex cursor-default items-center gap-2 rounded-md px-3 py-2 outline-none data-[highlighted]:bg-muted"
          >
            <LogOut aria-hidden className="size-4" />
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
