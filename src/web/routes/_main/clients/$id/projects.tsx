import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { parseProjectsSearch } from '../../../../features/projects/projects-search';
import { ensureValidRoute } from '../../../../lib/route-guard';

/** /clients/{id}/projects: the Projects tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/projects')({
  validateSearch: parseProjectsSearch,
  beforeLoad: ({ params }) => ensureValidRoute(z.uuid().safeParse(params.id).success),
});
