import { amplifyCookiePrefix } from '../../idp/staff-auth';
import { router } from '../../trpc/init';
import { publicProcedure } from '../../trpc/procedures';
import { audit } from '../system-log/service';

export const authRouter = router({
  /**
   * Ends the staff session on this browser. Public on purpose: the 500 screen calls it when the
   * session may already be broken, and it must still clear what the browser holds.
   */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    const member = (await ctx.staffIdentity())?.member;
    const prefix = amplifyCookiePrefix(ctx.config.idp.clientId);
    for (const name of Object.keys(ctx.req.cookies ?? {})) {
      if (name.startsWith(prefix)) ctx.res.clearCookie(name, { path: '/' });
    }
    if (member) {
      await audit(
        ctx.db,
        { kind: 'member', orgId: member.orgId, memberId: member.memberId, meta: ctx.meta },
        { action: 'auth.logout', recordType: 'member', recordId: member.memberId, summary: 'Signed out' },
      );
    }
    return { ok: true as const };
  }),
});
