import { createFileRoute } from '@tanstack/react-router';
import { parseWipSearch } from '../../../../features/billing/wip/wip-search';

/** /billing/wip: page, sort and search live in the URL; the screen shows "no access" without the right. */
export const Route = createFileRoute('/_main/billing/wip/')({
  validateSearch: parseWipSearch,
});
