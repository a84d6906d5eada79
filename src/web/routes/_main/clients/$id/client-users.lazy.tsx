import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientUsersPage } from '../../../../features/client-users/client-users-page';

export const Route = createLazyFileRoute('/_main/clients/$id/client-users')({ component: ClientUsersPage });
