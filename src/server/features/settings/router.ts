import { ZLogoUpload, ZOrgSettings } from '../../../domain/settings';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
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
});
