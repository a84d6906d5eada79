import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientProfile } from '../../../../features/clients/client-profile';

export const Route = createLazyFileRoute('/_main/clients/$id/')({ component: ClientProfile });
