import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientProjectsPage } from '../../../../features/projects/client-projects-page';

export const Route = createLazyFileRoute('/_main/clients/$id/projects')({ component: ClientProjectsPage });
