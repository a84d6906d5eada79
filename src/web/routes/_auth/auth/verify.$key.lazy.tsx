import { createLazyFileRoute } from '@tanstack/react-router';
import { BrokenLinkPage } from '../../../features/auth/broken-link-page';
import { VerifyPage } from '../../../features/auth/verify-page';

export const Route = createLazyFileRoute('/_auth/auth/verify/$key')({
  component: function VerifyRoute() {
    const { link } = Route.useRouteContext();
    return link ? <VerifyPage link={link} /> : <BrokenLinkPage kind="verify" />;
  },
});
