import { createLazyFileRoute } from '@tanstack/react-router';
import { TemplatesPage } from '../../../../../features/project-templates/templates-page';

export const Route = createLazyFileRoute('/_main/admin/templates/projects/')({ component: TemplatesPage });
