import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalDocumentsFolder } from '../../../../features/client-portal/documents-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/documents/$folderId')({
  component: PortalDocumentsFolder,
});
