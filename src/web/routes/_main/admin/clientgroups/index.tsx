import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../../../features/services/list-search';

/** /admin/clientgroups: page, sort and search live in the URL. */
export const Route = createFileRoute('/_main/admin/clientgroups/')({
  validateSearch: parseListSearch,
});
