import { createLazyFileRoute } from '@tanstack/react-router';
import { RolesPage } from '../../../features/roles/roles-page';

export const Route = createLazyFileRoute('/_main/admin/roles')({ component: RolesPage });
