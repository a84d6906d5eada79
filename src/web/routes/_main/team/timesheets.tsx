import { createFileRoute } from '@tanstack/react-router';
import { parseTeamSearch } from '../../../features/timesheets/week-search';

/** /team/timesheets: every member's week against the hours expected (?week= its Monday); ?view=rates the rates. */
export const Route = createFileRoute('/_main/team/timesheets')({ validateSearch: parseTeamSearch });
