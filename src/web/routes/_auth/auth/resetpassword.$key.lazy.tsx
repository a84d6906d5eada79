import { createLazyFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../../../features/auth/reset-password-page';

export const Route = createLazyFileRoute('/_auth/auth/resetpassword/$key')({
  component: function ResetPasswordRoute() {
    return <ResetPasswordPage link={Route.useRouteContext().link} />;
  },
});
