import { createFileRoute } from '@tanstack/react-router';
import { parseListParams } from '@web/ui';

/** /clients/{id}/client-users: the page lives in the URL. */
export const Route = createFileRoute('/_main/clients/$id/client-users')({
  validateSearch: (search: Record<string, unknown>) => parseListParams(search),
});
