import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  confirm,
  DateText,
  Skeleton,
  toast,
} from '@web/ui';
import { updateMFAPreference } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { showAuthError } from '../auth/auth-errors';
import { RecoveryCodesPanel } from '../auth/recovery-codes-panel';
import { TotpEnrolment } from '../auth/totp-enrolment';

type TMode = 'idle' | 'enrol' | 'codes';

/**
 * My account → Security: two-step sign-in with an authenticator app. Set up, replace, turn off
 * (unless the firm requires it) and new recovery codes. The identity provider logs the changes it
 * makes; the recovery codes are logged by the server.
 */
export function SecurityMfaCard() {
  const queryClient = useQueryClient();
  const status = useQuery(trpc.account.mfa.status.queryOptions());
  const [mode, setMode] = useState<TMode>('idle');
  const [codes, setCodes] = useState<string[]>([]);
  const [turningOff, setTurningOff] = useState(false);
  const [switchingEmail, setSwitchingEmail] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.mfa.status.queryKey() });
  const regenerate = useMutation(
    trpc.account.mfa.regenerateRecoveryCodes.mutationOptions({
      onSuccess: async (result) => {
        setCodes(result.codes);
        setMode('codes');
        await refresh();
      },
    }),
  );

  async function turnOff() {
    const ok = await confirm({
      title: 'Turn off two-step sign-in?',
      message: 'Sign-in will ask only for your password. Your recovery codes stop working.',
      confirmLabel: 'Turn off',
      danger: true,
    });
    if (!ok) return;
    setTurningOff(true);
    try {
      await updateMFAPreference({ totp: 'DISABLED', email: 'DISABLED' });
      toast.success('Two-step sign-in is off');
      await refresh();
    } catch (error) {
      showAuthError(error);
    } finally {
      setTurningOff(false);
    }
  }

  /** Email codes (EMAIL_OTP) on or off; with both on and neither preferred, sign-in asks which. */
  async function switchEmail(on: boolean) {
    setSwitchingEmail(true);
    try {
      await updateMFAPreference({ email: on ? 'ENABLED' : 'DISABLED' });
      toast.success(on ? 'Email codes are on' : 'Email codes are off');
      await refresh();
    } catch (error) {
      showAuthError(error);
    } finally {
      setSwitchingEmail(false);
    }
  }

  async function newCodes() {
    const ok = await confirm({
      title: 'Make new recovery codes?',
      message: 'The codes you have now stop working.',
      confirmLabel: 'Make new codes',
    });
    if (ok) regenerate.mutate();
  }

  const s = status.data;
  return (
    <Card aria-labelledby="mfa-card-title">
      <CardHeader>
        <div>
          <CardTitle id="mfa-card-title">Two-step sign-in</CardTitle>
          <CardDescription>
            A code from an authenticator app, or one we email you, after your password.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!s ? (
          <Skeleton className="h-16" />
        ) : !s.available ? (
          <p className="text-sm text-muted-fg">
            Two-step sign-in is managed by your firm’s identity provider.
          </p>
        ) : mode === 'enrol' ? (
          <TotpEnrolment
            onDone={async () => {
              setMode('idle');
              await refresh();
            }}
          />
        ) : mode === 'codes' ? (
          <RecoveryCodesPanel codes={codes} onDone={() => setMode('idle')} />
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={s.enabled ? 'green' : 'grey'}>{s.enabled ? 'On' : 'Off'}</Badge>
              {s.totpEnabled && <Badge tone="grey">Authenticator app</Badge>}
              {s.emailEnabled && <Badge tone="grey">Email codes</Badge>}
              {s.enabled && <span>{s.recoveryCodesLeft} recovery codes left</span>}
              {s.required && !s.enabled && s.dueAt && (
                <span>
                  Your firm requires it from <DateText value={s.dueAt} />.
                </span>
              )}
              {s.required && s.enabled && <span>Your firm requires it.</span>}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant={s.enabled ? 'secondary' : 'primary'} onClick={() => setMode('enrol')}>
                {s.totpEnabled ? 'Replace authenticator' : 'Set up authenticator'}
              </Button>
              {s.emailEnabled ? (
                // Required by the firm with no authenticator: email codes are the only step left.
                !(s.required && !s.totpEnabled) && (
                  <Button variant="secondary" onClick={() => switchEmail(false)} loading={switchingEmail}>
                    Turn off email codes
                  </Button>
                )
              ) : (
                <Button variant="secondary" onClick={() => switchEmail(true)} loading={switchingEmail}>
                  Use email codes
                </Button>
              )}
              {s.enabled && (
                <Button variant="secondary" onClick={newCodes} loading={regenerate.isPending}>
                  New recovery codes
                </Button>
              )}
              {s.enabled && !s.required && (
                <Button variant="ghost" onClick={turnOff} loading={turningOff}>
                  Turn off
                </Button>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
