import { createLazyFileRoute } from '@tanstack/react-router';
import { TemplatePage } from '../../../../../features/project-templates/template-page';

export const Route = createLazyFileRoute('/_main/admin/templates/projects/$id')({ component: TemplatePage });
