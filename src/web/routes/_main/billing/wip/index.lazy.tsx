import { createLazyFileRoute } from '@tanstack/react-router';
import { WipPage } from '../../../../features/billing/wip/wip-page';

export const Route = createLazyFileRoute('/_main/billing/wip/')({ component: WipPage });
