import { createLazyFileRoute } from '@tanstack/react-router';
import { InvitePage } from '../../../features/team/invite-page';

export const Route = createLazyFileRoute('/_auth/auth/invite/$key')({
  component: function InviteRoute() {
    return <InvitePage inviteKey={Route.useParams().key} />;
  },
});
