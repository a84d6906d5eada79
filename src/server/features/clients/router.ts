import {
  nextClientCode,
  ZClientBulk,
  ZClientCreate,
  ZClientListInput,
  ZClientRef,
  ZClientTeamAdd,
  ZClientTeamRemove,
  ZClientUpdate,
} from '../../../domain/clients';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { getClient } from './detail';
import { highestGeneratedCode } from './import-check';
import { clientImportRouter } from './import-router';
import { listClients } from './list';
import { assignableMembers, groupOptions, tagOptions } from './options';
import { bulkUpdate, createClient, setArchived, updateClient } from './service';
import { addTeamMember, clientTeamOf, removeTeamMember, updateResponsibility } from './team';
import { visibleClient } from './visibility';

const teamRouter = router({
  list: permissionProcedure('clients.view')
    .input(ZClientRef)
    .query(async ({ ctx, input }) => {
      await visibleClient(ctx.db, ctx.scope, input.clientId);
      return clientTeamOf(ctx.db, ctx.scope.orgId, input.clientId);
    }),
  add: permissionProcedure('clients.edit')
    .input(ZClientTeamAdd)
    .mutation(({ ctx, input }) => addTeamMember(ctx.db, ctx.scope, input, ctx.meta)),
  remove: permissionProcedure('clients.edit')
    .input(ZClientTeamRemove)
    .mutation(({ ctx, input }) => removeTeamMember(ctx.db, ctx.scope, input, ctx.meta)),
  updateResponsibility: permissionProcedure('clients.edit')
    .input(ZClientTeamAdd)
    .mutation(({ ctx, input }) => updateResponsibility(ctx.db, ctx.scope, input, ctx.meta)),
});

export const clientsRouter = router({
  list: permissionProcedure('clients.view')
    .input(ZClientListInput)
    .query(({ ctx, input }) => listClients(ctx.db, ctx.scope, input)),
  get: permissionProcedure('clients.view')
    .input(ZClientRef)
    .query(({ ctx, input }) => getClient(ctx.db, ctx.scope, input.clientId)),
  /** Pickers for the list's filters, bulk actions and the team tab. */
  options: permissionProcedure('clients.view').query(async ({ ctx }) => {
    const [groups, members, tags] = await Promise.all([
      groupOptions(ctx.db, ctx.scope),
      assignableMembers(ctx.db, ctx.scope),
      tagOptions(ctx.db, ctx.scope),
    ]);
    return { groups, members, tags };
  }),
  /** The code the New client form proposes: the one an import would give the next row. */
  nextCode: permissionProcedure('clients.create').query(async ({ ctx }) => ({
    code: nextClientCode([await highestGeneratedCode(ctx.db, ctx.scope.orgId)]),
  })),
  create: permissionProcedure('clients.create')
    .input(ZClientCreate)
    .mutation(({ ctx, input }) => createClient(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('clients.edit')
    .input(ZClientUpdate)
    .mutation(({ ctx, input }) => updateClient(ctx.db, ctx.scope, input.clientId, input.data, ctx.meta)),
  archive: permissionProcedure('clients.delete')
    .input(ZClientRef)
    .mutation(({ ctx, input }) => setArchived(ctx.db, ctx.scope, input.clientId, true, ctx.meta)),
  restore: permissionProcedure('clients.delete')
    .input(ZClientRef)
    .mutation(({ ctx, input }) => setArchived(ctx.db, ctx.scope, input.clientId, false, ctx.meta)),
  bulk: permissionProcedure('clients.edit')
    .input(ZClientBulk)
    .mutation(({ ctx, input }) => bulkUpdate(ctx.db, ctx.scope, input, ctx.meta)),
  team: teamRouter,
  import: clientImportRouter,
});
