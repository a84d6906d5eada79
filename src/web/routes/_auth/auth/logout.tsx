import { createFileRoute } from '@tanstack/react-router';
import { LogoutPage } from '../../../features/auth/logout-page';
import { guard } from '../../../lib/route-guard';

/**
 * Signing out needs a session to end: treated as a private route, so a visitor without the staff
 * cookie goes straight to the login, and a signed-in member is not bounced home by the guard.
 */
export const Route = createFileRoute('/_auth/auth/logout')({
  beforeLoad: ({ location }) => guard(location, { isPublic: false }),
  component: LogoutPage,
});
