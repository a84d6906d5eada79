import { createFileRoute } from '@tanstack/react-router';
import { parseWeekSearch } from '../../../features/timesheets/week-search';

/** /my-account/timesheet: the member's own week (?week= its Monday). */
export const Route = createFileRoute('/_main/my-account/timesheet')({ validateSearch: parseWeekSearch });
