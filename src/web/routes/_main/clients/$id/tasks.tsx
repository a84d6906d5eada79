import { createFileRoute } from '@tanstack/react-router';
import { parseTasksSearch } from '../../../../features/tasks/tasks-search';

/** /clients/{id}/tasks: a tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/tasks')({ validateSearch: parseTasksSearch });
