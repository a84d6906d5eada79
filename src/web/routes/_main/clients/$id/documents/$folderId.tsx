import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isRecordId } from '../../../../../lib/route-guard';

/** /clients/{id}/documents/{folderId}: one folder of the client's document tree. */
export const Route = createFileRoute('/_main/clients/$id/documents/$folderId')({
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.id) && isRecordId(params.folderId)),
});
