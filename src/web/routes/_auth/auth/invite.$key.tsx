import { isInviteKey } from '@domain/team-constants';
import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, guard } from '../../../lib/route-guard';

/**
 * Public, and a signed-in person stays on it (like /auth/verify): it is where they join the firm.
 * A key that is not well formed is no page at all (404).
 */
export const Route = createFileRoute('/_auth/auth/invite/$key')({
  beforeLoad: ({ location, params }) => {
    ensureValidRoute(isInviteKey(params.key));
    guard(location, { isPublic: true, skipRedirect: true });
  },
});
