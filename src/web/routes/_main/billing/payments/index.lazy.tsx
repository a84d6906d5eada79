import { createLazyFileRoute } from '@tanstack/react-router';
import { PaymentsPage } from '../../../../features/billing/payments/payments-page';

export const Route = createLazyFileRoute('/_main/billing/payments/')({ component: PaymentsPage });
