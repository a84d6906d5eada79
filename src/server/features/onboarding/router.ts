import { ZCreateFirm } from '../../../domain/onboarding';
import { router } from '../../trpc/init';
import { identifiedProcedure } from '../../trpc/procedures';
import { createFirm } from './service';

export const onboardingRouter = router({
  createFirm: identifiedProcedure
    .input(ZCreateFirm)
    .mutation(({ ctx, input }) => createFirm(ctx.db, ctx.identity, input, ctx.meta)),
});
