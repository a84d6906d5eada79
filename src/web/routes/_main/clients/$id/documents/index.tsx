import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isRecordId } from '../../../../../lib/route-guard';

/** /clients/{id}/documents: the client's document tree, at its top folder. */
export const Route = createFileRoute('/_main/clients/$id/documents/')({
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id)),
});
