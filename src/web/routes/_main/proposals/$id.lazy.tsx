import { createLazyFileRoute } from '@tanstack/react-router';
import { ProposalPage } from '../../../features/proposals/proposal-page';

export const Route = createLazyFileRoute('/_main/proposals/$id')({ component: ProposalPage });
