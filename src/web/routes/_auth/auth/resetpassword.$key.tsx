import { decodeAuthLinkKey } from '@domain/auth-links';
import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../../../lib/route-guard';

/** Its screen (which uses Amplify) is in the .lazy.tsx file, a chunk of its own. */
export const Route = createFileRoute('/_auth/auth/resetpassword/$key')({
  beforeLoad: ({ location, params }) => {
    // A key that does not decode (a link cut short in the mail) shows that the link is broken and
    // offers a new one, not a 404: the person came to finish signing up or resetting.
    const link = decodeAuthLinkKey(params.key);
    guard(location, { isPublic: true });
    return { link };
  },
});
