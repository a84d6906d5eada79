import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ensureValidRoute } from '../../../../lib/route-guard';

/** /billing/wip/{clientId}: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/billing/wip/$clientId')({
  beforeLoad: ({ params }) => ensureValidRoute(z.uuid().safeParse(params.clientId).success),
});
