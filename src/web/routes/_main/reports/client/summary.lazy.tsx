import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientSummaryPage } from '../../../../features/reports/client-summary-page';

export const Route = createLazyFileRoute('/_main/reports/client/summary')({ component: ClientSummaryPage });
