import { router } from '../../../trpc/init';

// Billing's invoices procedures (issue 35).
export const invoicesRouter = router({});
