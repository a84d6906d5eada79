import { router } from '../../../trpc/init';

// Billing's wip procedures (issue 35).
export const wipRouter = router({});
