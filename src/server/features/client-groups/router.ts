import {
  ZClientCandidatesInput,
  ZClientGroupGetInput,
  ZClientGroupInput,
  ZClientGroupListInput,
  ZClientGroupMembers,
  ZClientGroupRef,
  ZClientGroupUpdate,
} from '../../../domain/client-groups';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  addClients,
  candidates,
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  removeClients,
  updateGroup,
} from './service';

export const clientGroupsRouter = router({
  list: permissionProcedure('clientGroups.view')
    .input(ZClientGroupListInput)
    .query(({ ctx, input }) => listGroups(ctx.db, ctx.scope, input)),
  get: permissionProcedure('clientGroups.view')
    .input(ZClientGroupGetInput)
    .query(({ ctx, input }) => getGroup(ctx.db, ctx.scope, input)),
  create: permissionProcedure('clientGroups.create')
    .input(ZClientGroupInput)
    .mutation(({ ctx, input }) => createGroup(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('clientGroups.edit')
    .input(ZClientGroupUpdate)
    .mutation(({ ctx, input: { groupId, ...values } }) =>
      updateGroup(ctx.db, ctx.scope, groupId, values, ctx.meta),
    ),
  delete: permissionProcedure('clientGroups.delete')
    .input(ZClientGroupRef)
    .mutation(({ ctx, input }) => deleteGroup(ctx.db, ctx.scope, input.groupId, ctx.meta)),
  addClients: permissionProcedure('clientGroups.edit')
    .input(ZClientGroupMembers)
    .mutation(({ ctx, input }) => addClients(ctx.db, ctx.scope, input.groupId, input.clientIds, ctx.meta)),
  removeClients: permissionProcedure('clientGroups.edit')
    .input(ZClientGroupMembers)
    .mutation(({ ctx, input }) => removeClients(ctx.db, ctx.scope, input.groupId, input.clientIds, ctx.meta)),
  /** Clients to offer in the add-clients picker (clients.list arrives with the clients feature). */
  candidates: permissionProcedure('clientGroups.edit')
    .input(ZClientCandidatesInput)
    .query(({ ctx, input }) => candidates(ctx.db, ctx.scope, input)),
});
