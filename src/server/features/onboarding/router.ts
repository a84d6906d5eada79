import { ZCreateFirm } from '../../../domain/onboarding';
import { router } from '../../trpc/init';
import { identifiedProcedure } from '../../trpc/procedures';
import { createFirm } from './service';

export const onboardingRouter = router({
  /** Whether the signed-in person has a firm yet: where a fresh sign-in should land. */
  status: identifiedProcedure.query(({ ctx }) => ({ hasFirm: ctx.identity.member !== null })),
  createFirm: identifiedProcedure
    .input(ZCreateFirm)
    .mutation(({ ctx, input }) => createFirm(ctx.db, ctx.config, ctx.identity, input, ctx.meta)),
});
