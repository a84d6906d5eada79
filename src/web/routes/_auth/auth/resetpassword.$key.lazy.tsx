import { createLazyFileRoute } from '@tanstack/react-router';
import { BrokenLinkPage } from '../../../features/auth/broken-link-page';
import { ResetPasswordPage } from '../../../features/auth/reset-password-page';

export const Route = createLazyFileRoute('/_auth/auth/resetpassword/$key')({
  component: function ResetPasswordRoute() {
    const { link } = Route.useRouteContext();
    return link ? <ResetPasswordPage link={link} /> : <BrokenLinkPage kind="reset" />;
  },
});
