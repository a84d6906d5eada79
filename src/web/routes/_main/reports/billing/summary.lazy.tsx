import { createLazyFileRoute } from '@tanstack/react-router';
import { BillingSummaryPage } from '../../../../features/reports/billing-summary-page';

export const Route = createLazyFileRoute('/_main/reports/billing/summary')({ component: BillingSummaryPage });
