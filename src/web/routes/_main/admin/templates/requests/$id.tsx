import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isUuid } from '../../../../../lib/route-guard';

/** /admin/templates/requests/{id}: a template's editor; `new` starts one. Anything else is a 404. */
export const Route = createFileRoute('/_main/admin/templates/requests/$id')({
  beforeLoad: ({ params }) => ensureValidRoute(params.id === 'new' || isUuid(params.id)),
});
