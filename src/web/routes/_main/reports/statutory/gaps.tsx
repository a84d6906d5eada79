import { createFileRoute } from '@tanstack/react-router';
import { parseGapsSearch } from '../../../../features/statutory/gaps-search';

/** /reports/statutory/gaps: the filing and page live in the URL. */
export const Route = createFileRoute('/_main/reports/statutory/gaps')({
  validateSearch: parseGapsSearch,
});
