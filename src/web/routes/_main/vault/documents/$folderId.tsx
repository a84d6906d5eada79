import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ensureValidRoute } from '../../../../lib/route-guard';

/** /vault/documents/{folderId}: one folder of the firm vault. */
export const Route = createFileRoute('/_main/vault/documents/$folderId')({
  beforeLoad: ({ params }) => ensureValidRoute(z.uuid().safeParse(params.folderId).success),
});
