import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalInvitePage } from '../../../../features/portal-auth/portal-invite-page';

export const Route = createLazyFileRoute('/_auth/clientportal/auth/invite/$key')({
  component: function PortalInviteRoute() {
    return <PortalInvitePage inviteKey={Route.useParams().key} />;
  },
});
