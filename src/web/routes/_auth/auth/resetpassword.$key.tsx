import { decodeAuthLinkKey } from '@domain/auth-links';
import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, guard } from '../../../lib/route-guard';

/** Its screen (which uses Amplify) is in the .lazy.tsx file, a chunk of its own. */
export const Route = createFileRoute('/_auth/auth/resetpassword/$key')({
  beforeLoad: ({ location, params }) => {
    // A key that is not one of ours is no page at all.
    const link = decodeAuthLinkKey(params.key);
    ensureValidRoute(link !== null);
    guard(location, { isPublic: true });
    return { link: link as NonNullable<typeof link> };
  },
});
