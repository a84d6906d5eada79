import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isUuid } from '../../../lib/route-guard';

/** /proposals/{id}: one proposal: edit (a draft), preview, send, withdraw, signers, audit trail. */
export const Route = createFileRoute('/_main/proposals/$id')({
  beforeLoad: ({ params }) => ensureValidRoute(isUuid(params.id)),
});
