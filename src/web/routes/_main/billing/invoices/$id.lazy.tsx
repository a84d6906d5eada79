import { createLazyFileRoute } from '@tanstack/react-router';
import { InvoicePage } from '../../../../features/billing/invoices/invoice-page';

export const Route = createLazyFileRoute('/_main/billing/invoices/$id')({ component: InvoicePage });
