import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { parseProjectsSearch } from '../../../../../features/projects/projects-search';
import { ensureValidRoute } from '../../../../../lib/route-guard';

/** /admin/services/{id}/projects: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/admin/services/$id/projects')({
  validateSearch: parseProjectsSearch,
  beforeLoad: ({ params }) => ensureValidRoute(z.uuid().safeParse(params.id).success),
});
