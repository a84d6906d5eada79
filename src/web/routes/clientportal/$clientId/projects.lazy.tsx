import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalProjectsPage } from '../../../features/client-portal/projects-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/projects')({
  component: PortalProjectsPage,
});
