import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalDocumentsTop } from '../../../../features/client-portal/documents-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/documents/')({
  component: PortalDocumentsTop,
});
