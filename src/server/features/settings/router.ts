import { ZMfaPolicy } from '../../../domain/mfa';
import { ZLogoUpload, ZOrgSettings } from '../../../domain/settings';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { getMfaPolicy, updateMfaPolicy } from './mfa-policy';
import { getOrgSettings, removeLogo, updateOrgSettings, uploadLogo } from './service';

export const settingsRouter = router({
  get: permissionProcedure('settings.view').query(({ ctx }) => getOrgSettings(ctx.db, ctx.scope)),
  update: permissionProcedure('settings.edit')
    .input(ZOrgSettings)
    .mutation(({ ctx, input }) => updateOrgSettings(ctx.db, ctx.scope, input, ctx.meta)),
  uploadLogo: permissionProcedure('settings.edit')
    .input(ZLogoUpload)
    .mutation(({ ctx, input }) => uploadLogo(ctx.db, ctx.scope, input, ctx.meta)),
  removeLogo: permissionProcedure('settings.edit').mutation(({ ctx }) =>
    removeLogo(ctx.db, ctx.scope, ctx.meta),
  ),
  mfaPolicy: permissionProcedure('settings.view').query(({ ctx }) => getMfaPolicy(ctx.db, ctx.scope)),
  updateMfaPolicy: permissionProcedure('settings.edit')
    .input(ZMfaPolicy)
    .mutation(({ ctx, input }) => updateMfaPolicy(ctx.db, ctx.scope, input, ctx.meta)),
});
