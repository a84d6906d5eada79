import { createLazyFileRoute } from '@tanstack/react-router';
import { AdminLeavesPage } from '../../../../features/leave/admin-leaves-page';

export const Route = createLazyFileRoute('/_main/admin/hrms/leaves')({ component: AdminLeavesPage });
