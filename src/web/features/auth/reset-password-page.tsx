import type { TAuthLinkKey } from '@domain/auth-links';
import { useNavigate } from '@tanstack/react-router';
import { toast } from '@web/ui';
import { AuthHeading } from './auth-layout';
import { NewPasswordForm } from './new-password-form';

/** Opened from the emailed reset link, whose key carries the user name and code. */
export function ResetPasswordPage({ link }: { link: TAuthLinkKey }) {
  const navigate = useNavigate();
  return (
    <>
      <AuthHeading title="Choose a new password" description={`For ${link.username}`} />
      <NewPasswordForm
        mode="reset"
        username={link.username}
        code={link.code}
        onDone={() => {
          toast.success('Your password has been changed. Sign in with your new password.');
          void navigate({ to: '/auth/login' });
        }}
      />
    </>
  );
}
