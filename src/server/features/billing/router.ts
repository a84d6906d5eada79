import { router } from '../../trpc/init';
import { invoicesRouter } from './invoices/router';
import { paymentsRouter } from './payments/router';
import { receivablesRouter } from './receivables/router';
import { settingsRouter } from './settings/router';
import { statementsRouter } from './statements/router';
import { wipRouter } from './wip/router';

/** billing.*: each part of the billing cycle in its own folder (issue 35). */
export const billingRouter = router({
  invoices: invoicesRouter,
  wip: wipRouter,
  payments: paymentsRouter,
  settings: settingsRouter,
  receivables: receivablesRouter,
  statements: statementsRouter,
});
