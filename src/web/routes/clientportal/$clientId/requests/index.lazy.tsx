import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalRequestsPage } from '../../../../features/requests/portal-requests-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/requests/')({
  component: PortalRequestsPage,
});
