import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ensureValidRoute, guard } from '../../../lib/route-guard';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Public: a proposal's signer opens it from the mailed link (the server checks the link). */
export const Route = createFileRoute('/_auth/sign/$proposalId/$signerId')({
  validateSearch: z.object({ t: z.string().max(200).optional() }),
  beforeLoad: ({ location, params }) => {
    ensureValidRoute(UUID.test(params.proposalId) && UUID.test(params.signerId));
    guard(location, { isPublic: true, skipRedirect: true });
  },
});
