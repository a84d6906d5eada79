import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalLayout } from '../../features/client-portal/portal-layout';

export const Route = createLazyFileRoute('/clientportal/$clientId')({ component: PortalLayout });
