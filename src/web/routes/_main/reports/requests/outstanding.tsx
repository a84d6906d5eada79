import { createFileRoute } from '@tanstack/react-router';
import { parseOutstandingSearch } from '../../../../features/reports/requests-outstanding-page';

/** /reports/requests/outstanding: the sender, search, page and sort live in the URL. */
export const Route = createFileRoute('/_main/reports/requests/outstanding')({
  validateSearch: parseOutstandingSearch,
});
