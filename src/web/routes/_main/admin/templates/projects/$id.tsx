import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isRecordId } from '../../../../../lib/route-guard';

/** /admin/templates/projects/{id}: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/admin/templates/projects/$id')({
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
