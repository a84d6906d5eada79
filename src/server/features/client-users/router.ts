import { ZClientUserInvite, ZClientUserListInput, ZClientUserRef } from '../../../domain/client-users';
import type { TContext } from '../../trpc/context';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { disableClientUser, enableClientUser, removeClientUser } from './access';
import { inviteClientUser, resendClientUserInvite } from './invite';
import { listClientUsers } from './list';

const mail = (ctx: TContext) => ({ config: ctx.config });

/** /clients/{id}/client-users: the client's portal users. Seeing needs clients.view, changing clients.edit. */
export const clientUsersRouter = router({
  list: permissionProcedure('clients.view')
    .input(ZClientUserListInput)
    .query(({ ctx, input }) => listClientUsers(ctx.db, ctx.scope, input)),
  invite: permissionProcedure('clients.edit')
    .input(ZClientUserInvite)
    .mutation(({ ctx, input }) => inviteClientUser(ctx.db, mail(ctx), ctx.scope, input, ctx.meta)),
  resendInvite: permissionProcedure('clients.edit')
    .input(ZClientUserRef)
    .mutation(({ ctx, input }) => resendClientUserInvite(ctx.db, mail(ctx), ctx.scope, input, ctx.meta)),
  remove: permissionProcedure('clients.edit')
    .input(ZClientUserRef)
    .mutation(({ ctx, input }) => removeClientUser(ctx.db, ctx.scope, input, ctx.meta)),
  disable: permissionProcedure('clients.edit')
    .input(ZClientUserRef)
    .mutation(({ ctx, input }) => disableClientUser(ctx.db, ctx.scope, input, ctx.meta)),
  enable: permissionProcedure('clients.edit')
    .input(ZClientUserRef)
    .mutation(({ ctx, input }) => enableClientUser(ctx.db, ctx.scope, input, ctx.meta)),
});
