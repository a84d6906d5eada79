import { ZUpdateProfile } from '../../../domain/account';
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { getAccount, updateProfile } from './service';

/** The signed-in member's own account: any active member, only their own row. */
export const accountRouter = router({
  get: staffProcedure.query(({ ctx }) => getAccount(ctx.db, ctx.scope)),
  updateProfile: staffProcedure
    .input(ZUpdateProfile)
    .mutation(({ ctx, input }) => updateProfile(ctx.db, ctx.scope, input, ctx.meta)),
});
