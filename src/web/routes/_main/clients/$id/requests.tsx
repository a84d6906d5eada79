import { createFileRoute } from '@tanstack/react-router';
import { parseRequestsSearch } from '../../../../features/requests/requests-search';
import { ensureValidRoute, isUuid } from '../../../../lib/route-guard';

/** /clients/{id}/requests: the Requests tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/requests')({
  validateSearch: parseRequestsSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isUuid(params.id)),
});
