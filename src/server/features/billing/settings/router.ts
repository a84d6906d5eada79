import { router } from '../../../trpc/init';

// Billing's settings procedures (issue 35).
export const settingsRouter = router({});
