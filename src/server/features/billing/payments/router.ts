import { router } from '../../../trpc/init';

// Billing's payments procedures (issue 35).
export const paymentsRouter = router({});
