import { createLazyFileRoute } from '@tanstack/react-router';
import { ReceivablesPage } from '../../../../features/billing/receivables/receivables-page';

export const Route = createLazyFileRoute('/_main/billing/receivables/')({ component: ReceivablesPage });
