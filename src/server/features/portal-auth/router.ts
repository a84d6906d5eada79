import { ZPortalCodeRequest, ZPortalCodeVerify, ZPortalInviteKey } from '../../../domain/client-users';
import { clearPortalCookies, portalSessionToken, revokePortalSession, setPortalCookies } from '../../auth';
import type { TContext } from '../../trpc/context';
import { router } from '../../trpc/init';
import { publicProcedure } from '../../trpc/procedures';
import { requestPortalCode, verifyPortalCode } from './codes';
import { acceptPortalInvite, previewPortalInvite } from './invites';
import { signOutPortal } from './session';

const cookieOptions = (ctx: TContext) => ({ secure: ctx.config.publicUrl.startsWith('https:') });

/** The portal's sign-in: public procedures, under the clientPortal* namespace (SPEC.md §8's 401 rule). */
export const clientPortalAuthRouter = router({
  /** What an invitation link shows: open, or why it cannot be used. */
  invite: publicProcedure
    .input(ZPortalInviteKey)
    .query(({ ctx, input }) => previewPortalInvite(ctx.db, input.key)),
  acceptInvite: publicProcedure.input(ZPortalInviteKey).mutation(async ({ ctx, input }) => {
    const session = await acceptPortalInvite(ctx.db, input.key, ctx.meta);
    // A session this browser held before (another address) ends: one person at a time.
    await revokePortalSession(ctx.db, portalSessionToken(ctx.req));
    setPortalCookies(ctx.res, session.token, session.expiresAt, cookieOptions(ctx));
    return { email: session.email };
  }),
  requestCode: publicProcedure
    .input(ZPortalCodeRequest)
    .mutation(({ ctx, input }) =>
      requestPortalCode(
        ctx.db,
        { mailer: ctx.mailer, config: ctx.config, log: ctx.req.log },
        input.email,
        ctx.meta,
      ),
    ),
  verifyCode: publicProcedure.input(ZPortalCodeVerify).mutation(async ({ ctx, input }) => {
    const session = await verifyPortalCode(ctx.db, input, ctx.meta);
    await revokePortalSession(ctx.db, portalSessionToken(ctx.req));
    setPortalCookies(ctx.res, session.token, session.expiresAt, cookieOptions(ctx));
    return { email: session.email };
  }),
  /** Works without a live session too: whatever the browser holds is cleared. */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    await signOutPortal(ctx.db, portalSessionToken(ctx.req), ctx.meta);
    clearPortalCookies(ctx.res, cookieOptions(ctx));
    return { ok: true };
  }),
});
