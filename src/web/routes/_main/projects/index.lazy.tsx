import { createLazyFileRoute } from '@tanstack/react-router';
import { ProjectsPage } from '../../../features/projects/projects-page';

export const Route = createLazyFileRoute('/_main/projects/')({ component: ProjectsPage });
