import { createLazyFileRoute } from '@tanstack/react-router';
import { BroadcastsPage } from '../../../features/broadcasts/broadcasts-page';

export const Route = createLazyFileRoute('/_main/admin/broadcasts')({ component: BroadcastsPage });
