import { createFileRoute } from '@tanstack/react-router';
import { parseReportSearch } from '../../../../features/reports/report-search';

/** /reports/team/summary: the filters, period, page and sort live in the URL, so a view can be shared. */
export const Route = createFileRoute('/_main/reports/team/summary')({ validateSearch: parseReportSearch });
