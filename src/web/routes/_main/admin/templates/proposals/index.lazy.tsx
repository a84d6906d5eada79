import { createLazyFileRoute } from '@tanstack/react-router';
import { ProposalTemplatesPage } from '../../../../../features/proposals/proposal-templates-page';

export const Route = createLazyFileRoute('/_main/admin/templates/proposals/')({
  component: ProposalTemplatesPage,
});
