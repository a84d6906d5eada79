import { createLazyFileRoute } from '@tanstack/react-router';
import { ServicesPage } from '../../../../features/services/services-page';

export const Route = createLazyFileRoute('/_main/admin/services/')({ component: ServicesPage });
