import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalMessagesPage } from '../../../features/messages/portal-messages-page';

export const Route = createLazyFileRoute('/clientportal/$clientId/messages')({
  component: PortalMessagesPage,
});
