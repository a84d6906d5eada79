import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalCalendarPage } from '../../../features/client-portal/calendar-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/calendar')({
  component: PortalCalendarPage,
});
