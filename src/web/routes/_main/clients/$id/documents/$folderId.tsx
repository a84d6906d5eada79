import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ensureValidRoute } from '../../../../../lib/route-guard';

/** /clients/{id}/documents/{folderId}: one folder of the client's document tree. */
export const Route = createFileRoute('/_main/clients/$id/documents/$folderId')({
  beforeLoad: ({ params }) =>
    ensureValidRoute(z.uuid().safeParse(params.id).success && z.uuid().safeParse(params.folderId).success),
});
