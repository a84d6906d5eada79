import { isInvitedAddress } from '@domain/team';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button, buttonVariants, Spinner } from '@web/ui';
import { fetchUserAttributes } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { CircleX, Clock, MailOpen } from 'lucide-react';
import { useEffect, useState } from 'react';
import { hasStaffCookie } from '../../lib/cookies';
import { signOutStaff } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';
import { useJoinFirm } from './use-join-firm';

/**
 * /auth/invite/{key}: what the invitation is for; then "Create account" (which joins the firm at
 * once) or "Sign in" (which comes back here), or, once signed in, "Join {firm}".
 */
export function InvitePage({ inviteKey }: { inviteKey: string }) {
  const preview = useQuery(trpc.invites.preview.queryOptions({ key: inviteKey }));
  const signedIn = hasStaffCookie();
  const signedInEmail = useSignedInEmail(signedIn);

  if (preview.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-muted-fg">
        <Spinner className="size-4" /> Opening your invitation…
      </p>
    );
  }
  if (preview.isError) {
    return (
      <Closed
        icon={CircleX}
        title="This invitation link is not valid"
        message={
          preview.error.data?.code === 'NOT_FOUND'
            ? preview.error.message
            : 'We could not open this invitation. Try again in a moment.'
        }
      />
    );
  }
  const invite = preview.data;
  if (invite.state !== 'open') {
    const title = {
      expired: 'This invitation has expired',
      revoked: 'This invitation was withdrawn',
      accepted: 'This invitation was already used',
    }[invite.state];
    return (
      <Closed
        icon={invite.state === 'expired' ? Clock : CircleX}
        title={title}
        message={invite.message ?? ''}
      />
    );
  }

  const wrongAccount = signedInEmail !== null && !isInvitedAddress(invite.email, signedInEmail);
  return (
    <div className="flex flex-col gap-5">
      <MailOpen aria-hidden className="size-10 text-primary" />
      <AuthHeading
        title={`Join ${invite.firmName}`}
        description={
          invite.inviterName
            ? `${invite.inviterName} invited you to work with them on Practice.`
            : 'You are invited to work with the firm on Practice.'
        }
      />
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border border-border bg-muted/40 p-4 text-sm">
        <dt className="text-muted-fg">Firm</dt>
        <dd className="font-medium">{invite.firmName}</dd>
        <dt className="text-muted-fg">Role</dt>
        <dd className="font-medium">{invite.roleName}</dd>
        <dt className="text-muted-fg">Email</dt>
        <dd className="font-medium break-all">{invite.email}</dd>
      </dl>
      {signedIn ? (
        wrongAccount ? (
          <div className="flex flex-col gap-3">
            <p className="text-sm" role="alert">
              You are signed in as <strong>{signedInEmail}</strong>, but this invitation is for{' '}
              <strong>{invite.email}</strong>. Sign out, then sign in or create an account with that address.
            </p>
            <SignOutButton label="Sign out" />
          </div>
        ) : (
          <div className="flex flex-col gap-3">
            <JoinButton inviteKey={inviteKey} firmName={invite.firmName} />
            <SignOutButton label="Not you? Sign out" variant="ghost" />
          </div>
        )
      ) : (
        <div className="flex flex-col gap-3">
          <Link to="/auth/register" search={{ invite: inviteKey }} className={buttonVariants({ size: 'lg' })}>
            Create account
          </Link>
          <Link
            to="/auth/login"
            search={{ invite: inviteKey }}
            className={buttonVariants({ variant: 'outline', size: 'lg' })}
          >
            Sign in
          </Link>
          <p className="text-xs text-muted-fg">
            Already have an account with {invite.email}? Sign in. Otherwise create one with that address.
          </p>
        </div>
      )}
    </div>
  );
}

function JoinButton({ inviteKey, firmName }: { inviteKey: string; firmName: string }) {
  const accept = useJoinFirm();
  return (
    <Button size="lg" loading={accept.isPending} onClick={() => accept.mutate({ key: inviteKey })}>
      Join {firmName}
    </Button>
  );
}

function SignOutButton({ label, variant = 'outline' }: { label: string; variant?: 'outline' | 'ghost' }) {
  return (
    <Button
      variant={variant}
      // The one sign-out path (through the provider's /logout after a hosted sign-in), back here.
      onClick={() => void signOutStaff({ returnTo: window.location.pathname })}
    >
      {label}
    </Button>
  );
}

function Closed({ icon: Icon, title, message }: { icon: typeof CircleX; title: string; message: string }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <Icon aria-hidden className="size-10 text-danger" />
      <AuthHeading title={title} description={message} />
      <Link to="/auth/login" className="text-sm text-primary hover:underline">
        Go to sign in
      </Link>
    </div>
  );
}

/** The signed-in account's email, to warn before a join the server would refuse. */
function useSignedInEmail(signedIn: boolean): string | null {
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    fetchUserAttributes()
      .then((attributes) => setEmail(attributes.email?.toLowerCase() ?? null))
      .catch(() => {
        // Unknown: the server checks the address on join anyway.
      });
  }, [signedIn]);
  return email;
}
