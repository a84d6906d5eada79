import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isRecordId } from '../../../../lib/route-guard';

/** /billing/wip/{clientId}: a non-uuid id is a 404 before anything is asked of the server. */
export const Route = createFileRoute('/_main/billing/wip/$clientId')({
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.clientId)),
});
