import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientServicesPage } from '../../../../features/engagements/client-services-page';

export const Route = createLazyFileRoute('/_main/clients/$id/services')({ component: ClientServicesPage });
