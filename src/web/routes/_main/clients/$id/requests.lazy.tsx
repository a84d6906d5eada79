import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientRequestsPage } from '../../../../features/requests/client-requests-page';

export const Route = createLazyFileRoute('/_main/clients/$id/requests')({ component: ClientRequestsPage });
