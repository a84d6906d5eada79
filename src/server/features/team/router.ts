import {
  ZChangeRole,
  ZInviteKey,
  ZInviteListInput,
  ZInviteMember,
  ZInviteRef,
  ZMemberRef,
  ZTeamListInput,
} from '../../../domain/team';
import type { TContext } from '../../trpc/context';
import { router } from '../../trpc/init';
import {
  identifiedProcedure,
  permissionProcedure,
  publicProcedure,
  staffProcedure,
} from '../../trpc/procedures';
import { acceptInvite, previewInvite } from './invite-accept';
import { inviteMember, listInvites, resendInvite, revokeInvite } from './invites';
import { resetMemberMfa } from './mfa-reset';
import {
  assignableRoles,
  changeRole,
  deactivateMember,
  listMembers,
  reactivateMember,
  transferOwnership,
} from './service';

const mail = (ctx: TContext) => ({ config: ctx.config });

export const teamRouter = router({
  list: permissionProcedure('team.view')
    .input(ZTeamListInput)
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.scope, input)),
  invites: permissionProcedure('team.view')
    .input(ZInviteListInput)
    .query(({ ctx, input }) => listInvites(ctx.db, ctx.scope, input)),
  /** The roles the invite and change-role forms offer. */
  roles: permissionProcedure('team.view').query(({ ctx }) => assignableRoles(ctx.db, ctx.scope)),
  invite: permissionProcedure('team.create')
    .input(ZInviteMember)
    .mutation(({ ctx, input }) => inviteMember(ctx.db, mail(ctx), ctx.scope, input, ctx.meta)),
  resendInvite: permissionProcedure('team.create')
    .input(ZInviteRef)
    .mutation(({ ctx, input }) => resendInvite(ctx.db, mail(ctx), ctx.scope, input.inviteId, ctx.meta)),
  revokeInvite: permissionProcedure('team.create')
    .input(ZInviteRef)
    .mutation(({ ctx, input }) => revokeInvite(ctx.db, ctx.scope, input.inviteId, ctx.meta)),
  changeRole: permissionProcedure('team.edit')
    .input(ZChangeRole)
    .mutation(({ ctx, input }) => changeRole(ctx.db, ctx.scope, input, ctx.meta)),
  deactivate: permissionProcedure('team.edit')
    .input(ZMemberRef)
    .mutation(({ ctx, input }) => deactivateMember(ctx.db, ctx.scope, input.memberId, ctx.meta)),
  reactivate: permissionProcedure('team.edit')
    .input(ZMemberRef)
    .mutation(({ ctx, input }) => reactivateMember(ctx.db, ctx.scope, input.memberId, ctx.meta)),
  resetMfa: permissionProcedure('team.edit')
    .input(ZMemberRef)
    .mutation(({ ctx, input }) =>
      resetMemberMfa(ctx.db, ctx.config.idp.mode, ctx.scope, input.memberId, ctx.meta),
    ),
  /** Owner only: checked in the service, since the owner's permissions are every permission. */
  transferOwnership: staffProcedure
    .input(ZMemberRef)
    .mutation(({ ctx, input }) => transferOwnership(ctx.db, ctx.scope, input.memberId, ctx.meta)),
});

/** /auth/invite/{key}: what the link shows before sign-in, and joining once signed in. */
export const invitesRouter = router({
  preview: publicProcedure.input(ZInviteKey).query(({ ctx, input }) => previewInvite(ctx.db, input.key)),
  accept: identifiedProcedure
    .input(ZInviteKey)
    .mutation(({ ctx, input }) => acceptInvite(ctx.db, ctx.config, ctx.identity, input.key, ctx.meta)),
});
