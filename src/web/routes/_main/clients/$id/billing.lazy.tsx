import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientBillingPage } from '../../../../features/billing/invoices/client-billing-page';

export const Route = createLazyFileRoute('/_main/clients/$id/billing')({ component: ClientBillingPage });
