import { isPortalTag } from '@domain/client-portal-constants';
import { createFileRoute } from '@tanstack/react-router';
import { ZPortalTaskSearch } from '../../../../features/client-portal/task-search';
import { ensureValidRoute } from '../../../../lib/route-guard';

/** /clientportal/{clientId}/tasks/{tag}: the client's to-dos with one tag. */
export const Route = createFileRoute('/clientportal/$clientId/tasks/$tag')({
  validateSearch: ZPortalTaskSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isPortalTag(params.tag)),
});
