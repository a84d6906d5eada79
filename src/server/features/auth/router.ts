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
    const session = await ctx.staffSession();
    const prefix = amplifyCookiePrefix(ctx.config.idp.clientId);
    for (const name of Object.keys(ctx.req.cookies ?? {})) {
      if (name.startsWith(prefix)) ctx.res.clearCookie(name, { path: '/' });
    }
    if (session) {
      await audit(
        ctx.db,
        { kind: 'member', orgId: session.orgId, memberId: session.memberId, meta: ctx.meta },
        { action: 'auth.logout', recordType: 'member', recordId: session.memberId, summary: 'Signed out' },
      );
    }
    return { ok: true as const };
  }),
});
