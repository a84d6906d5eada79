import { ZIssueLink } from '../../../domain/signed-links';
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { issueLink } from './service';

/** Signed links to file routes, so the browser streams big files to disk itself. */
export const linksRouter = router({
  issue: staffProcedure
    .input(ZIssueLink)
    .mutation(({ ctx, input }) =>
      issueLink(
        ctx.db,
        ctx.config,
        { scope: ctx.scope, sub: ctx.identity.sub, originJti: ctx.identity.originJti },
        input,
      ),
    ),
});
