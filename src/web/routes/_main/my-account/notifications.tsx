import { NOTIFICATIONS_PAGE_SIZE } from '@domain/notifications-constants';
import { createFileRoute } from '@tanstack/react-router';

type TSearch = { page?: number };

/** /my-account/notifications: the member's own notifications; ?page= keeps the list's page. */
export const Route = createFileRoute('/_main/my-account/notifications')({
  validateSearch: (search: Record<string, unknown>): TSearch => {
    const page = Number(search.page);
    return Number.isInteger(page) && page > 1 ? { page } : {};
  },
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient, trpc }, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(
        trpc.notifications.list.queryOptions({
          page: deps.page,
          pageSize: NOTIFICATIONS_PAGE_SIZE,
          unreadFirst: true,
        }),
      ),
      queryClient.ensureQueryData(trpc.notifications.preferences.get.queryOptions()),
    ]),
});
