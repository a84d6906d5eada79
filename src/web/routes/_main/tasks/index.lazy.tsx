import { createLazyFileRoute } from '@tanstack/react-router';
import { TasksPage } from '../../../features/tasks/tasks-page';

export const Route = createLazyFileRoute('/_main/tasks/')({ component: TasksPage });
