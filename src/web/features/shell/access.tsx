import { hasPermission, type TPermission } from '@domain/permissions';
import { Link } from '@tanstack/react-router';
import { Button } from '@web/ui';
import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { useProfile } from './use-profile';

/** Whether the signed-in member holds a right (the owner holds them all). Only hides UI: the server decides. */
export function useCan(permission: TPermission): boolean {
  const profile = useProfile();
  return hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, permission);
}

/**
 * What an admin screen shows a member without its right. Admin routes have no route-level guard
 * (SPEC.md §2), so each screen renders this instead of its content, and never asks the server for
 * data it would refuse.
 */
export function NoAccess({ message }: { message?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-6 py-16 text-center">
      <div className="mb-1 grid size-10 place-items-center rounded-full bg-muted text-muted-fg">
        <Lock aria-hidden="true" className="size-5" />
      </div>
      <h1 className="text-base font-semibold text-fg">You do not have access to this page</h1>
      <p className="max-w-sm text-sm text-muted-fg">
        {message ??
          'Your role does not include this part of the admin area. Ask the firm owner if you need it.'}
      </p>
      <Button asChild variant="outline" className="mt-2">
        <Link to="/">Go to the home page</Link>
      </Button>
    </div>
  );
}

/** Renders the screen only for a member who holds the right; the no-access state otherwise. */
export function RequirePermission({
  permission,
  children,
}: {
  permission: TPermission;
  children: ReactNode;
}) {
  return useCan(permission) ? children : <NoAccess />;
}
