import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalSignPage } from '../../../../features/proposals/portal-signing-pages';

export const Route = createLazyFileRoute('/clientportal/$clientId/sign/$proposalId')({
  component: PortalSignPage,
});
