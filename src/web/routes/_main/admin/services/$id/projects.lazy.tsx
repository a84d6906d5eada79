import { createLazyFileRoute } from '@tanstack/react-router';
import { ServiceProjectsPage } from '../../../../../features/projects/service-projects-page';

export const Route = createLazyFileRoute('/_main/admin/services/$id/projects')({
  component: ServiceProjectsPage,
});
