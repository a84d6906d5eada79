import { type TSignIn, ZSignIn } from '@domain/auth';
import { SIGNED_OUT_REASONS } from '@domain/signed-out';
import { zodResolver } from '@hookform/resolvers/zod';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Button, Field, Input, toast } from '@web/ui';
import { confirmSignIn, type SetUpTOTPOutput, signIn } from 'aws-amplify/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpcClient } from '../../lib/trpc';
import { resendVerificationLink, showAuthError } from './auth-errors';
import { AuthHeading, StandalonePage } from './auth-layout';
import { freshRecoveryCodes, RememberDeviceStep, TotpCodeForm } from './mfa-sign-in-steps';
import { NewPasswordForm } from './new-password-form';
import { ProviderSignIn } from './provider-sign-in';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TOTP_ISSUER, TotpSetupPanel } from './totp-setup-panel';

type TStep =
  | 'credentials'
  | 'new-password'
  | 'unconfirmed'
  | 'totp'
  | 'totp-setup'
  | 'recovery-codes'
  | 'remember';

/**
 * Back to the invitation a person came from; otherwise home for a member of a firm (or the
 * authenticator set-up first, when the firm requires one and it is missing), onboarding for
 * someone who has not created one yet.
 */
async function landingAfterSignIn(invite: string | undefined): Promise<string> {
  if (invite) return `/auth/invite/${invite}`;
  const { hasFirm } = await trpcClient.onboarding.status.query();
  if (!hasFirm) return '/onboarding';
  const mfa = await trpcClient.account.mfa.status.query();
  return mfa.required && !mfa.enabled ? '/auth/mfa-setup' : '/';
}

const route = getRouteApi('/auth/login');

export function LoginPage() {
  const navigate = useNavigate();
  const { invite, reason } = route.useSearch();
  const [step, setStep] = useState<TStep>('credentials');
  const [email, setEmail] = useState('');
  const [totpSetup, setTotpSetup] = useState<SetUpTOTPOutput | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  // Signed out by the app (access turned off): the reason stays beside the form until the next try.
  const [failure, setFailure] = useState<string | null>(reason ? SIGNED_OUT_REASONS[reason] : null);
  const form = useForm<TSignIn>({
    resolver: zodResolver(ZSignIn),
    defaultValues: { email: '', password: '' },
  });

  async function onSubmit(values: TSignIn) {
    setFailure(null);
    try {
      const { nextStep } = await signIn({ username: values.email, password: values.password });
      setEmail(values.email);
      switch (nextStep.signInStep) {
        case 'DONE':
          await navigate({ href: await landingAfterSignIn(invite) });
          return;
        case 'CONFIRM_SIGN_UP':
          setStep('unconfirmed');
          return;
        case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
          setStep('new-password');
          return;
        case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
          setStep('totp');
          return;
        case 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP':
          setTotpSetup(nextStep.totpSetupDetails);
          setStep('totp-setup');
          return;
        case 'RESET_PASSWORD':
          toast.info('Your password must be reset before you can sign in.');
          await navigate({ to: '/auth/forgotpassword' });
          return;
        default:
          showAuthError(new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`));
      }
    } catch (error) {
      showAuthError(error);
      // Also beside the form: the toast fades, the reason should not.
      setFailure(error instanceof Error && error.message ? error.message : 'Network Error');
    }
  }

  const land = async () => navigate({ href: await landingAfterSignIn(invite) });

  async function verifySetup(code: string) {
    const { nextStep } = await confirmSignIn({ challengeResponse: code });
    if (nextStep.signInStep !== 'DONE')
      throw new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`);
    try {
      setRecoveryCodes(await freshRecoveryCodes());
      setStep('recovery-codes');
    } catch (error) {
      // Signed in all the same: the codes can be made later under My account → Security.
      showAuthError(error);
      setStep('remember');
    }
  }

  return (
    <StandalonePage>
      {step === 'credentials' && (
        <>
          <AuthHeading title="Sign in" description="Welcome back. Sign in to your practice." />
          <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
            <Field label="Email" error={form.formState.errors.email?.message}>
              <Input type="email" autoComplete="username" autoFocus {...form.register('email')} />
            </Field>
            <Field label="Password" error={form.formState.errors.password?.message}>
              <Input type="password" autoComplete="current-password" {...form.register('password')} />
            </Field>
            <div className="-mt-2 text-right text-sm">
              <Link to="/auth/forgotpassword" className="text-primary hover:underline">
                Forgot password?
              </Link>
            </div>
            {failure && (
              <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger">
                {failure}
              </p>
            )}
            <Button type="submit" loading={form.formState.isSubmitting}>
              Sign in
            </Button>
          </form>
          <ProviderSignIn />
          <p className="mt-6 text-center text-sm text-muted-fg">
            New to Practice?{' '}
            <Link
              to="/auth/register"
              search={invite ? { invite } : {}}
              className="font-medium text-primary hover:underline"
            >
              Create an account
            </Link>
          </p>
        </>
      )}
      {step === 'unconfirmed' && (
        <>
          <AuthHeading
            title="Verify your email"
            description={`Open the link we sent to ${email} to verify your address, then sign in.`}
          />
          <div className="flex flex-col gap-3">
            <Button onClick={() => resendVerificationLink(email)} variant="secondary">
              Send the link again
            </Button>
            <Button onClick={() => setStep('credentials')} variant="ghost">
              Back to sign in
            </Button>
          </div>
        </>
      )}
      {step === 'new-password' && (
        <>
          <AuthHeading
            title="Choose a new password"
            description="Your account needs a new password before you continue."
          />
          <NewPasswordForm mode="challenge" onDone={land} />
        </>
      )}
      {step === 'totp' && (
        <>
          <AuthHeading title="Two-step sign-in" description="Enter the code from your authenticator app." />
          <TotpCodeForm onSignedIn={() => setStep('remember')} />
        </>
      )}
      {step === 'totp-setup' && totpSetup && (
        <>
          <AuthHeading
            title="Set up two-step sign-in"
            description="Your firm requires an authenticator app to sign in."
          />
          <TotpSetupPanel
            secret={totpSetup.sharedSecret}
            uri={totpSetup.getSetupUri(TOTP_ISSUER, email).toString()}
            onVerify={verifySetup}
          />
        </>
      )}
      {step === 'recovery-codes' && (
        <>
          <AuthHeading title="Save your recovery codes" />
          <RecoveryCodesPanel codes={recoveryCodes} onDone={() => setStep('remember')} />
        </>
      )}
      {step === 'remember' && (
        <>
          <AuthHeading
            title="Remember this device?"
            description="On a remembered device you will not be asked for a code again. Only on a device you alone use."
          />
          <RememberDeviceStep onDone={land} />
        </>
      )}
    </StandalonePage>
  );
}
