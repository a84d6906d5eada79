import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isRecordId } from '../../../../lib/route-guard';

/** /vault/documents/{folderId}: one folder of the firm vault. */
export const Route = createFileRoute('/_main/vault/documents/$folderId')({
  beforeLoad: ({ params }) => ensureValidRoute(isRecordId(params.folderId)),
});
