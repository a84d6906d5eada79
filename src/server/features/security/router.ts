import { ZDeleteAccount, ZSignInList } from '../../../domain/security';
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { deleteOwnAccount, listSignIns } from './service';

/**
 * My account → Security: the signed-in member's own sign-ins and account. Devices and signing out
 * everywhere go straight to the identity provider through Amplify (they work with a Cognito pool).
 */
export const securityRouter = router({
  signIns: staffProcedure.input(ZSignInList).query(({ ctx, input }) => listSignIns(ctx.db, ctx.scope, input)),
  deleteAccount: staffProcedure
    .input(ZDeleteAccount)
    .mutation(({ ctx, input }) =>
      deleteOwnAccount(
        ctx.db,
        ctx.config,
        { sub: ctx.identity.sub, scope: ctx.scope },
        input.password,
        ctx.meta,
      ),
    ),
});
