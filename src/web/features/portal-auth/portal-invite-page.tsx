import { ROUTE_PATHS } from '@domain/route-guard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Spinner } from '@web/ui';
import { CircleX, Clock, MailOpen } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';

/** /clientportal/auth/invite/{key}: what the invitation is for, and accepting it (which signs in). */
export function PortalInvitePage({ inviteKey }: { inviteKey: string }) {
  const preview = useQuery(trpc.clientPortalAuth.invite.queryOptions({ key: inviteKey }));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useMutation(
    trpc.clientPortalAuth.acceptInvite.mutationOptions({
      onSuccess: async () => {
        queryClient.clear();
        await navigate({ href: ROUTE_PATHS['clientportal-index'], replace: true });
      },
      // A refusal (expired meanwhile, disabled) shows the page's closed state.
      onError: () => preview.refetch(),
    }),
  );

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
      disabled: 'Your portal access is turned off',
    }[invite.state];
    return (
      <Closed
        icon={invite.state === 'expired' ? Clock : CircleX}
        title={title}
        message={invite.message ?? ''}
      />
    );
  }
  return (
    <div className="flex flex-col gap-5">
      <MailOpen aria-hidden className="size-10 text-primary" />
      <AuthHeading
        title={`Welcome, ${invite.name}`}
        description={`${invite.firmName} invited you to their client portal for ${invite.clientName}.`}
      />
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border border-border bg-muted/40 p-4 text-sm">
        <dt className="text-muted-fg">Firm</dt>
        <dd className="font-medium">{invite.firmName}</dd>
        <dt className="text-muted-fg">Client</dt>
        <dd className="font-medium">{invite.clientName}</dd>
        <dt className="text-muted-fg">Email</dt>
        <dd className="font-medium break-all">{invite.email}</dd>
      </dl>
      <Button size="lg" loading={accept.isPending} onClick={() => accept.mutate({ key: inviteKey })}>
        Accept invitation
      </Button>
      <p className="text-xs text-muted-fg">
        Next time, sign in at the portal with {invite.email}: we email you a code, no password needed.
      </p>
    </div>
  );
}

function Closed({ icon: Icon, title, message }: { icon: typeof CircleX; title: string; message: string }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <Icon aria-hidden className="size-10 text-danger" />
      <AuthHeading title={title} description={message} />
      <Link to="/clientportal/auth/login" className="text-sm text-primary hover:underline">
        Go to the portal sign-in
      </Link>
    </div>
  );
}
