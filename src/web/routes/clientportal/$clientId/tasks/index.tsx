import { createFileRoute } from '@tanstack/react-router';
import { ZPortalTaskSearch } from '../../../../features/client-portal/task-search';

/** /clientportal/{clientId}/tasks: the client's to-dos (?view=completed, ?task={id} opens one). */
export const Route = createFileRoute('/clientportal/$clientId/tasks/')({
  validateSearch: ZPortalTaskSearch,
});
