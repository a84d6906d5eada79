import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../../../features/services/list-search';

/** /admin/services: page, sort and search live in the URL; the screen shows "no access" without the right. */
export const Route = createFileRoute('/_main/admin/services/')({
  validateSearch: parseListSearch,
});
