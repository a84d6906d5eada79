import { createLazyFileRoute } from '@tanstack/react-router';
import { VerifyPage } from '../../../features/auth/verify-page';

export const Route = createLazyFileRoute('/_auth/auth/verify/$key')({
  component: function VerifyRoute() {
    return <VerifyPage link={Route.useRouteContext().link} />;
  },
});
