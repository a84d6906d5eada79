import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientTeam } from '../../../../features/clients/client-team';

export const Route = createLazyFileRoute('/_main/clients/$id/team')({ component: ClientTeam });
