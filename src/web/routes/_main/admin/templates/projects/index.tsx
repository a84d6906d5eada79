import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../../../../features/services/list-search';

/** /admin/templates/projects: whether archived templates show lives in the URL. */
export const Route = createFileRoute('/_main/admin/templates/projects/')({
  validateSearch: parseListSearch,
});
