import { useNavigate } from '@tanstack/react-router';
import {
  Avatar,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@web/ui';
import { Bell, LogOut, UserRound } from 'lucide-react';
import { useState } from 'react';
import { signOutStaff } from '../../lib/session';
import { ProfileDialog } from '../account/profile-dialog';
import type { TProfileView } from './use-profile';

export function UserMenu({ profile }: { profile: TProfileView }) {
  const [editing, setEditing] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label={`Account menu for ${profile.fullName}`}
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
          <DropdownMenuItem onSelect={() => setEditing(true)}>
            <UserRound aria-hidden />
            My profile
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void navigate({ to: '/my-account/notifications' })}>
            <Bell aria-hidden />
            Notifications
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void signOutStaff()}>
            <LogOut aria-hidden />
            Sign out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ProfileDialog open={editing} onOpenChange={setEditing} />
    </>
  );
}
