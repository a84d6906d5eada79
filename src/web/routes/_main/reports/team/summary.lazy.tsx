import { createLazyFileRoute } from '@tanstack/react-router';
import { TeamSummaryPage } from '../../../../features/reports/team-summary-page';

export const Route = createLazyFileRoute('/_main/reports/team/summary')({ component: TeamSummaryPage });
