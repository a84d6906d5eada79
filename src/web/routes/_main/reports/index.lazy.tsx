import { createLazyFileRoute } from '@tanstack/react-router';
import { ReportsIndexPage } from '../../../features/reports/reports-index-page';

export const Route = createLazyFileRoute('/_main/reports/')({ component: ReportsIndexPage });
