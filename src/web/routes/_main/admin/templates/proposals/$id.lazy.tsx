import { createLazyFileRoute } from '@tanstack/react-router';
import { ProposalTemplatePage } from '../../../../../features/proposals/proposal-template-page';

export const Route = createLazyFileRoute('/_main/admin/templates/proposals/$id')({
  component: ProposalTemplatePage,
});
