import { createLazyFileRoute } from '@tanstack/react-router';
import { StatutoryPage } from '../../../../features/statutory/statutory-page';

export const Route = createLazyFileRoute('/_main/admin/statutory/')({ component: StatutoryPage });
