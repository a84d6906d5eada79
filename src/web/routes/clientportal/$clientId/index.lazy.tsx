import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalHomePage } from '../../../features/client-portal/home-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/')({ component: PortalHomePage });
