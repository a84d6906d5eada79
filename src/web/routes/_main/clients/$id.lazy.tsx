import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientLayout } from '../../../features/clients/client-layout';

export const Route = createLazyFileRoute('/_main/clients/$id')({ component: ClientLayout });
