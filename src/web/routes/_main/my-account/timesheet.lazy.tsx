import { createLazyFileRoute } from '@tanstack/react-router';
import { MyTimesheetPage } from '../../../features/timesheets/my-timesheet-page';

export const Route = createLazyFileRoute('/_main/my-account/timesheet')({ component: MyTimesheetPage });
