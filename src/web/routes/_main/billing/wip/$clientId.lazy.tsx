import { createLazyFileRoute } from '@tanstack/react-router';
import { WipClientPage } from '../../../../features/billing/wip/wip-client-page';

export const Route = createLazyFileRoute('/_main/billing/wip/$clientId')({ component: WipClientPage });
