import { createLazyFileRoute } from '@tanstack/react-router';
import { RequestTemplatePage } from '../../../../../features/requests/templates/request-template-page';

export const Route = createLazyFileRoute('/_main/admin/templates/requests/$id')({
  component: RequestTemplatePage,
});
