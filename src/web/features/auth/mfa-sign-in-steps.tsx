import { type TSecondFactorCode, ZSecondFactorCode } from '@domain/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Field, Input } from '@web/ui';
import { confirmSignIn, rememberDevice } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpcClient } from '../../lib/trpc';
import { showAuthError } from './auth-errors';

/**
 * The sign-in's SOFTWARE_TOKEN_MFA step: the authenticator's six digits, or one of the person's
 * recovery codes (the identity provider accepts either in the same answer).
 */
export function TotpCodeForm({
  onSignedIn,
  label = 'Authentication code',
  hint = 'The six digits from your authenticator app, or a recovery code',
}: {
  onSignedIn: () => Promise<void> | void;
  label?: string;
  hint?: string;
}) {
  const form = useForm<TSecondFactorCode>({
    resolver: zodResolver(ZSecondFactorCode),
    defaultValues: { code: '' },
  });

  async function onSubmit({ code }: TSecondFactorCode) {
    try {
      const { nextStep } = await confirmSignIn({ challengeResponse: code });
      if (nextStep.signInStep === 'DONE') await onSignedIn();
      else showAuthError(new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`));
    } catch (error) {
      showAuthError(error);
      form.reset({ code: '' });
    }
  }

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
      <Field label={label} hint={hint} error={form.formState.errors.code?.message}>
        <Input autoComplete="one-time-code" autoFocus {...form.register('code')} />
      </Field>
      <Button type="submit" loading={form.formState.isSubmitting}>
        Verify
      </Button>
    </form>
  );
}

/** Amplify's AuthMFAType (not exported from aws-amplify/auth). */
export type AuthMFAType = 'SMS' | 'TOTP' | 'EMAIL';

const MFA_TYPE_LABELS: Partial<Record<AuthMFAType, { title: string; text: string }>> = {
  TOTP: { title: 'Authenticator app', text: 'A code from an app on your phone' },
  EMAIL: { title: 'Email code', text: 'A code we email to you' },
};

/** SELECT_MFA_TYPE or MFA_SETUP's choice: one button per type the identity provider offers. */
export function MfaTypeChoice({
  types,
  onChoose,
}: {
  types: AuthMFAType[];
  onChoose: (type: AuthMFAType) => Promise<void>;
}) {
  const [busy, setBusy] = useState<AuthMFAType | null>(null);
  return (
    <div className="flex flex-col gap-3">
      {types.flatMap((type) => {
        const label = MFA_TYPE_LABELS[type];
        if (!label) return [];
        return [
          <Button
            key={type}
            variant="outline"
            className="h-auto flex-col items-start gap-0.5 py-3 text-left"
            loading={busy === type}
            disabled={busy !== null}
            onClick={async () => {
              setBusy(type);
              await onChoose(type).finally(() => setBusy(null));
            }}
          >
            <span className="font-medium">{label.title}</span>
            <span className="text-xs font-normal text-muted-fg">{label.text}</span>
          </Button>,
        ];
      })}
    </div>
  );
}

/** After the second step: a remembered device skips it next time (Cognito's remembered devices). */
export function RememberDeviceStep({ onDone }: { onDone: () => Promise<void> | void }) {
  const [busy, setBusy] = useState<'yes' | 'no' | null>(null);

  async function answer(remember: boolean) {
    setBusy(remember ? 'yes' : 'no');
    try {
      if (remember) await rememberDevice();
      await onDone();
    } catch (error) {
      showAuthError(error);
      setBusy(null);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <Button onClick={() => answer(true)} loading={busy === 'yes'} disabled={busy !== null}>
        Remember this device
      </Button>
      <Button variant="ghost" onClick={() => answer(false)} loading={busy === 'no'} disabled={busy !== null}>
        Not on this device
      </Button>
    </div>
  );
}

/** The recovery codes of a new authenticator (the server shows them once). */
export async function freshRecoveryCodes(): Promise<string[]> {
  const { codes } = await trpcClient.account.mfa.regenerateRecoveryCodes.mutate();
  return codes;
}
