import { Button, toast } from '@web/ui';
import { confirmSignIn, type SignInOutput } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useState } from 'react';
import { showAuthError } from './auth-errors';
import { AuthHeading } from './auth-layout';
import {
  type AuthMFAType,
  freshRecoveryCodes,
  MfaTypeChoice,
  RememberDeviceStep,
  TotpCodeForm,
} from './mfa-sign-in-steps';
import { NewPasswordForm } from './new-password-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import type { TotpSetupPanel } from './totp-setup-panel';
import { resendVerificationLink } from './verification-link';

// What the login page asks after the password (a second step, a set-up, a new password): a chunk
// fetched only by the sign-ins that have such a step (login-page.tsx).

/** One screen after the password. */
export type TChallenge =
  | { step: 'unconfirmed' | 'new-password' | 'totp' | 'remember' }
  /** `settingUp`: an email MFA being set up at this sign-in, whose code shows the recovery codes next. */
  | { step: 'email-code'; destination: string; settingUp: boolean }
  | { step: 'mfa-choice' | 'setup-choice'; types: AuthMFAType[] }
  | { step: 'totp-setup'; secret: string; uri: string; Panel: typeof TotpSetupPanel }
  | { step: 'recovery-codes'; codes: string[] };

/** Who is signing in, and the ways out of the login page. */
export type TSignInExits = {
  email: string;
  /** Signed in: on to where the person was going. */
  land: () => Promise<void>;
  /** Amplify wants the password reset before a sign-in. */
  resetPassword: () => Promise<void>;
};

/**
 * The screen for Amplify's next step, or null when there is none to show: signed in, sent to reset
 * the password, or a step this app does not support (reported). Steps that need no one are answered
 * here: an email MFA being set up sends its code to the account's own verified address (the
 * identity provider takes no other).
 */
export async function challengeFor(
  nextStep: SignInOutput['nextStep'],
  exits: TSignInExits,
  settingUpEmail = false,
): Promise<TChallenge | null> {
  switch (nextStep.signInStep) {
    case 'DONE':
      await exits.land();
      return null;
    case 'CONFIRM_SIGN_UP':
      return { step: 'unconfirmed' };
    case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
      return { step: 'new-password' };
    case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
      return { step: 'totp' };
    case 'CONFIRM_SIGN_IN_WITH_EMAIL_CODE':
      return {
        step: 'email-code',
        destination: nextStep.codeDeliveryDetails?.destination ?? '',
        settingUp: settingUpEmail,
      };
    case 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION':
      return { step: 'mfa-choice', types: nextStep.allowedMFATypes ?? [] };
    case 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION':
      return { step: 'setup-choice', types: nextStep.allowedMFATypes ?? [] };
    case 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP': {
      // The QR code's library comes with the one sign-in that sets up an authenticator, before the
      // step is shown so that it appears whole.
      const { TOTP_ISSUER, TotpSetupPanel } = await import('./totp-setup-panel');
      const details = nextStep.totpSetupDetails;
      return {
        step: 'totp-setup',
        secret: details.sharedSecret,
        uri: details.getSetupUri(TOTP_ISSUER, exits.email).toString(),
        Panel: TotpSetupPanel,
      };
    }
    case 'CONTINUE_SIGN_IN_WITH_EMAIL_SETUP':
      return challengeFor((await confirmSignIn({ challengeResponse: exits.email })).nextStep, exits, true);
    case 'RESET_PASSWORD':
      toast.info('Your password must be reset before you can sign in.');
      await exits.resetPassword();
      return null;
    default:
      showAuthError(new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`));
      return null;
  }
}

/** The screens after the password, from the first one challengeFor answered. */
export function SignInChallenge({
  first,
  exits,
  onRestart,
}: {
  first: TChallenge;
  exits: TSignInExits;
  /** Back to the email and password. */
  onRestart: () => void;
}) {
  const [challenge, setChallenge] = useState(first);

  async function choose(type: AuthMFAType) {
    try {
      const next = await challengeFor((await confirmSignIn({ challengeResponse: type })).nextStep, exits);
      if (next) setChallenge(next);
    } catch (error) {
      showAuthError(error);
    }
  }

  async function showNewRecoveryCodes() {
    try {
      setChallenge({ step: 'recovery-codes', codes: await freshRecoveryCodes() });
    } catch (error) {
      // Signed in all the same: the codes can be made later under My account → Security.
      showAuthError(error);
      setChallenge({ step: 'remember' });
    }
  }

  async function verifySetup(code: string) {
    const { nextStep } = await confirmSignIn({ challengeResponse: code });
    if (nextStep.signInStep !== 'DONE')
      throw new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`);
    await showNewRecoveryCodes();
  }

  const remember = () => setChallenge({ step: 'remember' });

  switch (challenge.step) {
    case 'unconfirmed':
      return (
        <>
          <AuthHeading
            title="Verify your email"
            description={`Open the link we sent to ${exits.email} to verify your address, then sign in.`}
          />
          <div className="flex flex-col gap-3">
            <Button onClick={() => resendVerificationLink(exits.email)} variant="secondary">
              Send the link again
            </Button>
            <Button onClick={onRestart} variant="ghost">
              Back to sign in
            </Button>
          </div>
        </>
      );
    case 'new-password':
      return (
        <>
          <AuthHeading
            title="Choose a new password"
            description="Your account needs a new password before you continue."
          />
          <NewPasswordForm mode="challenge" onDone={exits.land} />
        </>
      );
    case 'totp':
      return (
        <>
          <AuthHeading title="Two-step sign-in" description="Enter the code from your authenticator app." />
          <TotpCodeForm onSignedIn={remember} />
        </>
      );
    case 'email-code':
      return (
        <>
          <AuthHeading
            title="Two-step sign-in"
            description={`Enter the code we emailed to ${challenge.destination || 'your address'}.`}
          />
          <TotpCodeForm
            label="Code from the email"
            hint={
              challenge.settingUp
                ? 'The six digits in the email'
                : 'The six digits in the email, or a recovery code'
            }
            onSignedIn={challenge.settingUp ? showNewRecoveryCodes : remember}
          />
        </>
      );
    case 'mfa-choice':
      return (
        <>
          <AuthHeading title="Two-step sign-in" description="How would you like to get your code?" />
          <MfaTypeChoice types={challenge.types} onChoose={choose} />
        </>
      );
    case 'setup-choice':
      return (
        <>
          <AuthHeading
            title="Set up two-step sign-in"
            description="Your firm requires a second step after your password. Choose how you will get your codes."
          />
          <MfaTypeChoice types={challenge.types} onChoose={choose} />
        </>
      );
    case 'totp-setup':
      return (
        <>
          <AuthHeading
            title="Set up two-step sign-in"
            description="Your firm requires an authenticator app to sign in."
          />
          <challenge.Panel secret={challenge.secret} uri={challenge.uri} onVerify={verifySetup} />
        </>
      );
    case 'recovery-codes':
      return (
        <>
          <AuthHeading title="Save your recovery codes" />
          <RecoveryCodesPanel codes={challenge.codes} onDone={remember} />
        </>
      );
    case 'remember':
      return (
        <>
          <AuthHeading
            title="Remember this device?"
            description="On a remembered device you will not be asked for a code again. Only on a device you alone use."
          />
          <RememberDeviceStep onDone={exits.land} />
        </>
      );
  }
}
