import { ZBillingSettings } from '../../../../domain/billing/schemas';
import { router } from '../../../trpc/init';
import { permissionProcedure } from '../../../trpc/procedures';
import { getBillingSettings, updateBillingSettings } from './service';

// Billing's settings procedures (issue 35): the firm's tax profile, numbering, terms, how it is
// paid and its payment-reminder schedule. The existing settings.billing right opens them.
export const settingsRouter = router({
  get: permissionProcedure('settings.billing').query(({ ctx }) => getBillingSettings(ctx.db, ctx.scope)),
  update: permissionProcedure('settings.billing')
    .input(ZBillingSettings)
    .mutation(({ ctx, input }) => updateBillingSettings(ctx.db, ctx.scope, input, ctx.meta)),
});
