import { createLazyFileRoute } from '@tanstack/react-router';
import { HolidaysPage } from '../../../../features/leave/holidays-page';

export const Route = createLazyFileRoute('/_main/admin/hrms/holidays')({ component: HolidaysPage });
