import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, isUuid } from '../../../../../lib/route-guard';

/** /admin/templates/proposals/{id}: a template's editor; `new` starts one. */
export const Route = createFileRoute('/_main/admin/templates/proposals/$id')({
  beforeLoad: ({ params }) => ensureValidRoute(params.id === 'new' || isUuid(params.id)),
});
