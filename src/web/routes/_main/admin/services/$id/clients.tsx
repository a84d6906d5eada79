import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../../../../features/services/list-search';
import { ensureValidRoute, isRecordId } from '../../../../../lib/route-guard';

/** /admin/services/{id}/clients: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/admin/services/$id/clients')({
  validateSearch: parseListSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
