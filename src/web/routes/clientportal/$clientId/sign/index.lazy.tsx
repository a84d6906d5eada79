import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalToSignPage } from '../../../../features/proposals/portal-signing-pages';

export const Route = createLazyFileRoute('/clientportal/$clientId/sign/')({
  component: PortalToSignPage,
});
