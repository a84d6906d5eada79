import { createFileRoute } from '@tanstack/react-router';
import { parseReportSearch } from '../../../../features/reports/report-search';

/** /reports/client/summary: the filters, period, page and sort live in the URL, so a view can be shared. */
export const Route = createFileRoute('/_main/reports/client/summary')({ validateSearch: parseReportSearch });
