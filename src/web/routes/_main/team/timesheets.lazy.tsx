import { createLazyFileRoute } from '@tanstack/react-router';
import { TeamTimesheetsPage } from '../../../features/timesheets/team-timesheets-page';

export const Route = createLazyFileRoute('/_main/team/timesheets')({ component: TeamTimesheetsPage });
