import { createLazyFileRoute } from '@tanstack/react-router';
import { ProposalsPage } from '../../../features/proposals/proposals-page';

export const Route = createLazyFileRoute('/_main/proposals/')({ component: ProposalsPage });
