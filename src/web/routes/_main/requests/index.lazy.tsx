import { createLazyFileRoute } from '@tanstack/react-router';
import { RequestsPage } from '../../../features/requests/requests-page';

export const Route = createLazyFileRoute('/_main/requests/')({ component: RequestsPage });
