import { router } from '../../trpc/init';
import { portalProcedure, staffProcedure } from '../../trpc/procedures';
import { getPortalProfile } from './portal';
import { getProfile } from './service';

export const profileRouter = router({
  me: staffProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.scope)),
});

export const clientPortalProfileRouter = router({
  me: portalProcedure.query(({ ctx }) => getPortalProfile(ctx.db, ctx.portal)),
});
