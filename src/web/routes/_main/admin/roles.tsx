import { createFileRoute } from '@tanstack/react-router';
import { parseListParams } from '@web/ui';

/** /admin/roles: the page and search live in the URL. */
export const Route = createFileRoute('/_main/admin/roles')({
  validateSearch: (search: Record<string, unknown>) => parseListParams(search),
});
