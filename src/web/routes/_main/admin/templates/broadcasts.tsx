import { createFileRoute } from '@tanstack/react-router';
import { parseListParams } from '@web/ui';

/** /admin/templates/broadcasts: the page and page size live in the URL. */
export const Route = createFileRoute('/_main/admin/templates/broadcasts')({
  validateSearch: (search: Record<string, unknown>) => parseListParams(search),
});
