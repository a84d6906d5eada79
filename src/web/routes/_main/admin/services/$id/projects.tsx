import { createFileRoute } from '@tanstack/react-router';
import { parseProjectsSearch } from '../../../../../features/projects/projects-search';
import { ensureValidRoute, isRecordId } from '../../../../../lib/route-guard';

/** /admin/services/{id}/projects: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/admin/services/$id/projects')({
  validateSearch: parseProjectsSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
