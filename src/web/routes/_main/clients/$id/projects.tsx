import { createFileRoute } from '@tanstack/react-router';
import { parseProjectsSearch } from '../../../../features/projects/projects-search';
import { ensureValidRoute, isRecordId } from '../../../../lib/route-guard';

/** /clients/{id}/projects: the Projects tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/projects')({
  validateSearch: parseProjectsSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
