import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalTaggedTasksPage } from '../../../../features/client-portal/tasks-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/tasks/$tag')({
  component: PortalTaggedTasksPage,
});
