import { createLazyFileRoute } from '@tanstack/react-router';
import { ServiceClientsPage } from '../../../../../features/services/service-clients-page';

export const Route = createLazyFileRoute('/_main/admin/services/$id/clients')({
  component: ServiceClientsPage,
});
