import { createLazyFileRoute, useNavigate } from '@tanstack/react-router';
import { NotificationsPage } from '../../../features/notifications/notifications-page';

export const Route = createLazyFileRoute('/_main/my-account/notifications')({ component: Screen });

function Screen() {
  const { page = 1 } = Route.useSearch();
  const navigate = useNavigate({ from: '/my-account/notifications' });
  return (
    <NotificationsPage
      page={page}
      onPageChange={(next) => void navigate({ search: next > 1 ? { page: next } : {} })}
    />
  );
}
