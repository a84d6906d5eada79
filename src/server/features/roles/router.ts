import { ZPageInput } from '../../../domain/pagination';
import { ZRoleId, ZRoleInput, ZRoleUpdate } from '../../../domain/roles';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { createRole, deleteRole, getRole, listRoles, updateRole } from './service';

export const rolesRouter = router({
  list: permissionProcedure('roles.view')
    .input(ZPageInput.pick({ page: true, pageSize: true, search: true }))
    .query(({ ctx, input }) => listRoles(ctx.db, ctx.scope, input)),
  get: permissionProcedure('roles.view')
    .input(ZRoleId)
    .query(({ ctx, input }) => getRole(ctx.db, ctx.scope, input.id)),
  create: permissionProcedure('roles.create')
    .input(ZRoleInput)
    .mutation(({ ctx, input }) => createRole(ctx.db, ctx.scope, ctx.meta, input)),
  update: permissionProcedure('roles.edit')
    .input(ZRoleUpdate)
    .mutation(({ ctx, input }) => updateRole(ctx.db, ctx.scope, ctx.meta, input)),
  delete: permissionProcedure('roles.delete')
    .input(ZRoleId)
    .mutation(({ ctx, input }) => deleteRole(ctx.db, ctx.scope, ctx.meta, input.id)),
});
