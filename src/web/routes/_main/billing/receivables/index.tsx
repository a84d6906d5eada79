import { createFileRoute } from '@tanstack/react-router';
import { parseReceivablesSearch } from '../../../../features/billing/receivables/receivables-search';

/** /billing/receivables: the dimension, page, sort and search live in the URL. */
export const Route = createFileRoute('/_main/billing/receivables/')({
  validateSearch: parseReceivablesSearch,
});
