import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isUuid } from '../../../lib/route-guard';

/** /requests/{id}: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/requests/$id')({
  beforeLoad: ({ params }) => ensureValidRoute(isUuid(params.id)),
});
