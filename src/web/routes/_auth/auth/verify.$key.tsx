import { decodeAuthLinkKey } from '@domain/auth-links';
import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, guard } from '../../../lib/route-guard';

/** Public, and a signed-in member is not sent away from it (SPEC.md §2, §4). */
export const Route = createFileRoute('/_auth/auth/verify/$key')({
  beforeLoad: ({ location, params }) => {
    const link = decodeAuthLinkKey(params.key);
    ensureValidRoute(link !== null);
    guard(location, { isPublic: true, skipRedirect: true });
    return { link: link as NonNullable<typeof link> };
  },
});
