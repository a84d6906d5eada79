import { isPortalInviteKey } from '@domain/client-users-constants';
import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, guard } from '../../../../lib/route-guard';

/**
 * Public and flagged to skip the redirect: someone signed in (perhaps as another person) must still
 * reach the invitation. A key that is not well formed is no page at all (404).
 */
export const Route = createFileRoute('/_auth/clientportal/auth/invite/$key')({
  beforeLoad: ({ location, params }) => {
    ensureValidRoute(isPortalInviteKey(params.key));
    guard(location, { isPublic: true, skipRedirect: true });
  },
});
