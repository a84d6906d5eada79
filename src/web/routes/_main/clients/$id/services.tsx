import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../../../features/services/list-search';
import { ensureValidRoute, isRecordId } from '../../../../lib/route-guard';

/** /clients/{id}/services: the Services tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/services')({
  validateSearch: parseListSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
