import { createFileRoute } from '@tanstack/react-router';
import { parseReportSearch } from '../../../../features/reports/report-search';

/** /reports/services/summary: the filters, period, page and sort live in the URL, so a view can be shared. */
export const Route = createFileRoute('/_main/reports/services/summary')({
  validateSearch: parseReportSearch,
});
