import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../../../features/services/list-search';
import { ensureValidRoute, isRecordId } from '../../../../lib/route-guard';

/** /admin/clientgroups/{id}: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/admin/clientgroups/$id')({
  validateSearch: parseListSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
