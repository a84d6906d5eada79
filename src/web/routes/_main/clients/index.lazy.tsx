import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientsPage } from '../../../features/clients/clients-page';

export const Route = createLazyFileRoute('/_main/clients/')({ component: ClientsPage });
