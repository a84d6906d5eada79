import { createLazyFileRoute } from '@tanstack/react-router';
import { RequestTemplatesPage } from '../../../../../features/requests/templates/request-templates-page';

export const Route = createLazyFileRoute('/_main/admin/templates/requests/')({
  component: RequestTemplatesPage,
});
