import { ZUpdateProfile } from '../../../domain/account';
import type { TScope } from '../../auth';
import type { TContext } from '../../trpc/context';
import { router } from '../../trpc/init';
import { mfaSetupProcedure, staffProcedure } from '../../trpc/procedures';
import { mfaStatus, regenerateRecoveryCodes } from './mfa';
import { getAccount, updateProfile } from './service';

/** The signed-in member's own account: any active member, only their own row. */
export const accountRouter = router({
  get: staffProcedure.query(({ ctx }) => getAccount(ctx.db, ctx.scope)),
  updateProfile: staffProcedure
    .input(ZUpdateProfile)
    .mutation(({ ctx, input }) => updateProfile(ctx.db, ctx.scope, input, ctx.meta)),
  /** Open to a member held back by the firm's MFA rule: these are the set-up itself. */
  mfa: router({
    status: mfaSetupProcedure.query(({ ctx }) => mfaStatus(ctx.db, caller(ctx))),
    regenerateRecoveryCodes: mfaSetupProcedure.mutation(({ ctx }) =>
      regenerateRecoveryCodes(ctx.db, caller(ctx), ctx.meta),
    ),
  }),
});

const caller = (ctx: TContext & { scope: TScope; identity: { sub: string } }) => ({
  scope: ctx.scope,
  sub: ctx.identity.sub,
  config: ctx.config,
});
