import { revokeSignIn } from '../../idp/sessions';
import { amplifyCookiePrefix } from '../../idp/staff-auth';
import { router } from '../../trpc/init';
import { publicProcedure } from '../../trpc/procedures';
import { audit } from '../system-log';

const DEVICE_COOKIE = /\.(deviceKey|deviceGroupKey|randomPasswordKey)$/;

export const authRouter = router({
  /**
   * Ends the staff session on this browser. Public on purpose: the 500 screen calls it when the
   * session may already be broken, and it must still clear what the browser holds.
   */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    const identity = await ctx.staffIdentity();
    const member = identity?.member;
    await ctx.db.transaction(async (tx) => {
      // The embedded provider ends the sign-in itself: its refresh token and every access token of
      // it stop working at once. (A Cognito pool's tokens are revoked by Amplify's own sign-out.)
      if (identity?.originJti && ctx.config.idp.mode === 'embedded')
        await revokeSignIn(tx, identity.originJti);
      if (member) {
        await audit(
          tx,
          { kind: 'member', orgId: member.orgId, memberId: member.memberId, meta: ctx.meta },
          { action: 'auth.logout', recordType: 'member', recordId: member.memberId, summary: 'Signed out' },
        );
      }
    });
    const prefix = amplifyCookiePrefix(ctx.config.idp.clientId);
    for (const name of Object.keys(ctx.req.cookies ?? {})) {
      // The device's own keys stay, as Amplify's sign-out keeps them: they name this browser, not
      // the sign-in, and a remembered device must still skip MFA next time.
      if (name.startsWith(prefix) && !DEVICE_COOKIE.test(name)) ctx.res.clearCookie(name, { path: '/' });
    }
    return { ok: true as const };
  }),
});
