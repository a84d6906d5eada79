import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientTasksTab } from '../../../../features/tasks/tasks-page';

export const Route = createLazyFileRoute('/_main/clients/$id/tasks')({ component: ClientTasksTab });
