import { relativeDate } from '@domain/dates';
import { notificationKindLabel, NOTIFICATIONS_PAGE_SIZE as PAGE_SIZE } from '@domain/notifications';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Card,
  CardHeader,
  CardTitle,
  cn,
  EmptyState,
  PageHeader,
  Pagination,
  Skeleton,
  useFormat,
} from '@web/ui';
import { BellOff, CheckCheck } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { PreferencesMatrix } from './preferences-matrix';
import { useNotificationActions } from './use-notification-actions';

type TRow = {
  id: string;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  readAt: Date | null;
  createdAt: Date;
};

/** /my-account/notifications: the member's notifications (unread first) and their preferences. */
export function NotificationsPage({
  page,
  onPageChange,
}: {
  page: number;
  onPageChange: (page: number) => void;
}) {
  const list = useQuery(
    trpc.notifications.list.queryOptions({ page, pageSize: PAGE_SIZE, unreadFirst: true }),
  );
  const unread = useQuery(trpc.notifications.unreadCount.queryOptions());
  const { markRead, markAllRead } = useNotificationActions();
  const navigate = useNavigate();
  const unreadCount = unread.data?.count ?? 0;

  function open(row: TRow) {
    if (!row.readAt) markRead.mutate({ ids: [row.id] });
    if (row.link) void navigate({ href: row.link });
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 p-6">
      <PageHeader
        trail={[{ label: 'Notifications' }]}
        title="Notifications"
        description={unreadCount ? `${unreadCount} unread` : 'You are all caught up.'}
        actions={
          <Button
            variant="outline"
            disabled={unreadCount === 0}
            loading={markAllRead.isPending}
            onClick={() => markAllRead.mutate()}
          >
            <CheckCheck aria-hidden />
            Mark all as read
          </Button>
        }
        className="pb-0"
      />
      <Card aria-label="Your notifications">
        {list.isPending ? (
          <div className="flex flex-col gap-3 p-4" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-12" />
            ))}
          </div>
        ) : !list.data || list.data.total === 0 ? (
          <EmptyState
            icon={BellOff}
            title="No notifications yet"
            message="When something needs you, it shows up here."
          />
        ) : (
          <>
            <ul className="divide-y divide-border">
              {list.data.rows.map((row) => (
                <NotificationItem
                  key={row.id}
                  row={row}
                  onOpen={() => open(row)}
                  onMarkRead={() => markRead.mutate({ ids: [row.id] })}
                />
              ))}
            </ul>
            {list.data.total > PAGE_SIZE ? (
              <Pagination
                page={page}
                pageSize={PAGE_SIZE}
                total={list.data.total}
                onPageChange={onPageChange}
                disabled={list.isFetching}
                className="border-t border-border"
              />
            ) : null}
          </>
        )}
      </Card>
      <Card id="preferences" aria-labelledby="preferences-title">
        <CardHeader>
          <div>
            <CardTitle id="preferences-title">Preferences</CardTitle>
            <p className="text-sm text-muted-fg">
              Choose what shows up here and what is also sent to you by email.
            </p>
          </div>
        </CardHeader>
        <PreferencesMatrix />
      </Card>
    </div>
  );
}

function NotificationItem({
  row,
  onOpen,
  onMarkRead,
}: {
  row: TRow;
  onOpen: () => void;
  onMarkRead: () => void;
}) {
  const unread = !row.readAt;
  const format = useFormat();
  return (
    <li
      className={cn('flex items-start gap-3 px-4 py-3', unread && 'bg-primary/5')}
      data-unread={unread || undefined}
    >
      <span
        aria-hidden
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')}
      />
      <button
        type="button"
        onClick={onOpen}
        className="flex min-w-0 flex-1 flex-col items-start gap-0.5 rounded-sm text-left focus-visible:outline-2 focus-visible:outline-ring"
      >
        <span className={cn('text-sm', unread ? 'font-semibold text-fg' : 'text-fg')}>
          {row.title}
          {unread ? <span className="sr-only"> (unread)</span> : null}
        </span>
        {row.body ? <span className="text-sm text-muted-fg">{row.body}</span> : null}
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-fg">
          <Badge tone="outline">{notificationKindLabel(row.kind)}</Badge>
          <time dateTime={row.createdAt.toISOString()} title={format.dateTime(row.createdAt)}>
            {relativeDate(row.createdAt)}
          </time>
        </span>
      </button>
      {unread ? (
        <Button variant="ghost" size="sm" onClick={onMarkRead} aria-label={`Mark read: “${row.title}”`}>
          Mark read
        </Button>
      ) : null}
    </li>
  );
}
