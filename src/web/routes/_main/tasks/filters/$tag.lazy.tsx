import { createLazyFileRoute } from '@tanstack/react-router';
import { TagTasksPage } from '../../../../features/tasks/tasks-page';

export const Route = createLazyFileRoute('/_main/tasks/filters/$tag')({ component: TagTasksPage });
