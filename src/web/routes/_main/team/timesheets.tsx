import { createFileRoute } from '@tanstack/react-router';
import { parseWeekSearch } from '../../../features/timesheets/week-search';

/** /team/timesheets: every member's week against the hours expected (?week= its Monday). */
export const Route = createFileRoute('/_main/team/timesheets')({ validateSearch: parseWeekSearch });
