import { createLazyFileRoute } from '@tanstack/react-router';
import { TeamLeavesPage } from '../../../features/leave/team-leaves-page';

export const Route = createLazyFileRoute('/_main/team/leaves')({ component: TeamLeavesPage });
