import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalTasksPage } from '../../../../features/client-portal/tasks-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/tasks/')({ component: PortalTasksPage });
