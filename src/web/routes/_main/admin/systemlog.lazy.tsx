import { createLazyFileRoute } from '@tanstack/react-router';
import { SystemLogPage } from '../../../features/system-log/system-log-page';

export const Route = createLazyFileRoute('/_main/admin/systemlog')({ component: SystemLogPage });
