import { createFileRoute } from '@tanstack/react-router';
import { PortalLogoutPage } from '../../../../features/portal-auth/portal-logout-page';
import { guard } from '../../../../lib/route-guard';

/** Public and flagged to skip the redirect, or a signed-in person could never reach it. */
export const Route = createFileRoute('/_auth/clientportal/auth/logout')({
  beforeLoad: ({ location }) => guard(location, { isPublic: true, skipRedirect: true }),
  component: PortalLogoutPage,
});
