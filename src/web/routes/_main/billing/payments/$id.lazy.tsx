import { createLazyFileRoute } from '@tanstack/react-router';
import { PaymentPage } from '../../../../features/billing/payments/payment-page';

export const Route = createLazyFileRoute('/_main/billing/payments/$id')({ component: PaymentPage });
