import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { buttonVariants, cn } from '@web/ui';
import { Bell } from 'lucide-react';
import { trpc } from '../../lib/trpc';

export const UNREAD_POLL_MS = 60_000;

/** The top bar's bell: the unread count, polled every minute and on window focus. */
export function NotificationBell() {
  const { data } = useQuery(
    trpc.notifications.unreadCount.queryOptions(undefined, {
      refetchInterval: UNREAD_POLL_MS,
      // Whatever the default staleness: coming back to the tab should show the real count.
      refetchOnWindowFocus: 'always',
    }),
  );
  const count = data?.count ?? 0;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      to="/my-account/notifications"
      aria-label={count ? `Notifications, ${count} unread` : 'Notifications'}
      className={cn(buttonVariants({ variant: 'ghost' }), 'relative size-8 px-0')}
    >
      <Bell aria-hidden className="size-4" />
      {count ? (
        <span
          data-testid="unread-count"
          className="absolute -top-0.5 -right-0.5 grid h-4 min-w-4 place-items-center rounded-full bg-danger px-1 text-[10px] font-semibold leading-none text-danger-fg tabular-nums"
        >
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
