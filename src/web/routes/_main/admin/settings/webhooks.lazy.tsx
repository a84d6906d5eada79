import { createLazyFileRoute } from '@tanstack/react-router';
import { WebhooksPage } from '../../../../features/api/webhooks-page';

export const Route = createLazyFileRoute('/_main/admin/settings/webhooks')({ component: WebhooksPage });
