import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalRequestPage } from '../../../../features/requests/portal-request-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/requests/$requestId')({
  component: PortalRequestPage,
});
