import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button, DateText, Skeleton } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { AuthHeading, StandalonePage } from './auth-layout';
import { TotpEnrolment } from './totp-enrolment';

/**
 * /auth/mfa-setup: where a member whose firm requires two-step sign-in is taken before any staff
 * page. Within the grace period they may put it off; after it, the server refuses their other
 * calls until this is done.
 */
export function MfaSetupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.account.mfa.status.queryOptions());

  async function finish() {
    await queryClient.invalidateQueries();
    await navigate({ to: '/' });
  }

  return (
    <StandalonePage>
      <AuthHeading
        title="Set up two-step sign-in"
        description="Your firm requires an authenticator app to sign in."
      />
      {!status.data ? (
        <Skeleton className="h-80" />
      ) : (
        <div className="flex flex-col gap-4">
          {status.data.dueAt && !status.data.overdue && (
            <p className="rounded-md bg-warning/10 px-3 py-2 text-sm">
              Required from <DateText value={status.data.dueAt} />.
            </p>
          )}
          <TotpEnrolment onDone={finish} />
          {!status.data.overdue && (
            <Button variant="ghost" onClick={() => navigate({ to: '/' })}>
              Not now
            </Button>
          )}
        </div>
      )}
    </StandalonePage>
  );
}
