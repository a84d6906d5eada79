import { type TSignIn, ZSignIn } from '@domain/auth';
import { SIGNED_OUT_REASONS } from '@domain/signed-out';
import { zodResolver } from '@hookform/resolvers/zod';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Button, Field, Input, toast } from '@web/ui';
import { confirmSignIn, type SetUpTOTPOutput, type SignInOutput, signIn } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { takeReturnAfterSignOut } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { resendVerificationLink, showAuthError } from './auth-errors';
import { AuthHeading, StandalonePage } from './auth-layout';
import {
  type AuthMFAType,
  freshRecoveryCodes,
  MfaTypeChoice,
  RememberDeviceStep,
  TotpCodeForm,
} from './mfa-sign-in-steps';
import { NewPasswordForm } from './new-password-form';
import { ProviderSignIn } from './provider-sign-in';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TOTP_ISSUER, TotpSetupPanel } from './totp-setup-panel';

type TStep =
  | 'credentials'
  | 'new-password'
  | 'unconfirmed'
  | 'totp'
  | 'email-code'
  | 'mfa-choice'
  | 'setup-choice'
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
  const [mfaTypes, setMfaTypes] = useState<AuthMFAType[]>([]);
  const [codeDestination, setCodeDestination] = useState('');
  // An email MFA being set up at this sign-in: its code shows the recovery codes next.
  const [settingUpEmail, setSettingUpEmail] = useState(false);
  // Signed out by the app (access turned off): the reason stays beside the form until the next try.
  // Read from the address on every render, not kept from the first: the page may already be open
  // (a sign-out that landed here a moment earlier) when the address gains its reason.
  const [failure, setFailure] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const shownFailure = failure ?? (!tried && reason ? SIGNED_OUT_REASONS[reason] : null);
  useEffect(() => {
    // Back from the provider's /logout after a sign-out that meant to end elsewhere (an invitation).
    const target = takeReturnAfterSignOut();
    if (target) void navigate({ href: target, replace: true });
  }, [navigate]);
  const form = useForm<TSignIn>({
    resolver: zodResolver(ZSignIn),
    defaultValues: { email: '', password: '' },
  });

  async function onSubmit(values: TSignIn) {
    setFailure(null);
    setTried(true);
    try {
      const { nextStep } = await signIn({ username: values.email, password: values.password });
      setEmail(values.email);
      await next(nextStep, values.email);
    } catch (error) {
      showAuthError(error);
      // Also beside the form: the toast fades, the reason should not.
      setFailure(error instanceof Error && error.message ? error.message : 'Network Error');
    }
  }

  const land = async () => navigate({ href: await landingAfterSignIn(invite) });

  /** Each step Amplify answers, the sign-in's and those of the MFA steps after it. */
  async function next(nextStep: SignInOutput['nextStep'], signInEmail = email): Promise<void> {
    switch (nextStep.signInStep) {
      case 'DONE':
        await land();
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
      case 'CONFIRM_SIGN_IN_WITH_EMAIL_CODE':
        setCodeDestination(nextStep.codeDeliveryDetails?.destination ?? '');
        setStep('email-code');
        return;
      case 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION':
        setMfaTypes(nextStep.allowedMFATypes ?? []);
        setStep('mfa-choice');
        return;
      case 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION':
        setMfaTypes(nextStep.allowedMFATypes ?? []);
        setStep('setup-choice');
        return;
      case 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP':
        setTotpSetup(nextStep.totpSetupDetails);
        setStep('totp-setup');
        return;
      case 'CONTINUE_SIGN_IN_WITH_EMAIL_SETUP':
        // The code goes to the account's own verified address (the identity provider takes no other).
        setSettingUpEmail(true);
        await next((await confirmSignIn({ challengeResponse: signInEmail })).nextStep, signInEmail);
        return;
      case 'RESET_PASSWORD':
        toast.info('Your password must be reset before you can sign in.');
        await navigate({ to: '/auth/forgotpassword' });
        return;
      default:
        showAuthError(new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`));
    }
  }

  async function choose(type: AuthMFAType) {
    try {
      await next((await confirmSignIn({ challengeResponse: type })).nextStep);
    } catch (error) {
      showAuthError(error);
    }
  }

  /** After a second step answered: recovery codes once a new one was set up, then "remember". */
  async function afterSecondStep() {
    if (!settingUpEmail) {
      setStep('remember');
      return;
    }
    await showNewRecoveryCodes();
  }

  async function showNewRecoveryCodes() {
    try {
      setRecoveryCodes(await freshRecoveryCodes());
      setStep('recovery-codes');
    } catch (error) {
      // Signed in all the same: the codes can be made later under My account → Security.
      showAuthError(error);
      setStep('remember');
    }
  }

  async function verifySetup(code: string) {
    const { nextStep } = await confirmSignIn({ challengeResponse: code });
    if (nextStep.signInStep !== 'DONE')
      throw new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`);
    await showNewRecoveryCodes();
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
            {shownFailure && (
              <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger">
                {shownFailure}
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
      {step === 'email-code' && (
        <>
          <AuthHeading
            title="Two-step sign-in"
            description={`Enter the code we emailed to ${codeDestination || 'your address'}.`}
          />
          <TotpCodeForm
            label="Code from the email"
            hint={
              settingUpEmail
                ? 'The six digits in the email'
                : 'The six digits in the email, or a recovery code'
            }
            onSignedIn={afterSecondStep}
          />
        </>
      )}
      {step === 'mfa-choice' && (
        <>
          <AuthHeading title="Two-step sign-in" description="How would you like to get your code?" />
          <MfaTypeChoice types={mfaTypes} onChoose={choose} />
        </>
      )}
      {step === 'setup-choice' && (
        <>
          <AuthHeading
            title="Set up two-step sign-in"
            description="Your firm requires a second step after your password. Choose how you will get your codes."
          />
          <MfaTypeChoice types={mfaTypes} onChoose={choose} />
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
