import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalInvoicesPage } from '../../../features/client-portal/invoices-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/invoices')({
  component: PortalInvoicesPage,
});
