import { createLazyFileRoute } from '@tanstack/react-router';
import { RequestsOutstandingPage } from '../../../../features/reports/requests-outstanding-report';

export const Route = createLazyFileRoute('/_main/reports/requests/outstanding')({
  component: RequestsOutstandingPage,
});
