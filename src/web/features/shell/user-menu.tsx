import { Link } from '@tanstack/react-router';
import {
  Avatar,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  initials,
} from '@web/ui';
import { Bell, LockKeyhole, LogOut, UserRound } from 'lucide-react';
import { signOutStaff } from '../../lib/session';
import { openProfileDialog } from '../account/profile-dialog-host';
import type { TProfileView } from './use-profile';

export function UserMenu({ profile }: { profile: TProfileView }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        // Begins with the initials the avatar shows, so "click MS" works for a voice user.
        aria-label={`${initials(profile.fullName)}, account menu for ${profile.fullName}`}
        className="flex items-center gap-2 rounded-full p-0.5 hover:bg-muted"
      >
        <Avatar name={profile.fullName} src={profile.picture ?? undefined} size="sm" />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-56">
        <div className="px-2 py-2 text-sm">
          <p className="font-medium">{profile.fullName}</p>
          <p className="truncate text-muted-fg">{profile.email}</p>
          <p className="mt-1 text-xs text-muted-fg">
            {profile.role.name}
            {profile.isOwner ? ' · Owner' : ''}
          </p>
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={openProfileDialog}>
          <UserRound aria-hidden />
          My profile
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/my-account/notifications">
            <Bell aria-hidden />
            Notifications
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/my-account/security">
            <LockKeyhole aria-hidden />
            Security
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOutStaff()}>
          <LogOut aria-hidden />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
