import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientToDoTab } from '../../../../features/tasks/tasks-page';

export const Route = createLazyFileRoute('/_main/clients/$id/client-tasks')({ component: ClientToDoTab });
