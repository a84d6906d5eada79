import { createLazyFileRoute } from '@tanstack/react-router';
import { ServicesSummaryPage } from '../../../../features/reports/services-summary-page';

export const Route = createLazyFileRoute('/_main/reports/services/summary')({
  component: ServicesSummaryPage,
});
