import { createLazyFileRoute } from '@tanstack/react-router';
import { AdminIndexPage } from '../../../features/admin/admin-index-page';

export const Route = createLazyFileRoute('/_main/admin/')({ component: AdminIndexPage });
