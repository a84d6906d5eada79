import { createLazyFileRoute } from '@tanstack/react-router';
import { InvoicesPage } from '../../../../features/billing/invoices/invoices-page';

export const Route = createLazyFileRoute('/_main/billing/invoices/')({ component: InvoicesPage });
