import { createLazyFileRoute } from '@tanstack/react-router';
import { ProjectPage } from '../../../features/projects/project-page';

export const Route = createLazyFileRoute('/_main/projects/$id')({ component: ProjectPage });
