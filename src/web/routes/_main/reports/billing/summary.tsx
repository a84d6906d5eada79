import { createFileRoute } from '@tanstack/react-router';
import { parseReportSearch } from '../../../../features/reports/report-search';

/** /reports/billing/summary: the period, filters, rows' dimension, page and sort live in the URL. */
export const Route = createFileRoute('/_main/reports/billing/summary')({ validateSearch: parseReportSearch });
