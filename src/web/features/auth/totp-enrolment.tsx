import { Skeleton } from '@web/ui';
import { type SetUpTOTPOutput, setUpTOTP, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useEffect, useRef, useState } from 'react';
import { showAuthError } from './auth-errors';
import { freshRecoveryCodes } from './mfa-sign-in-steps';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TOTP_ISSUER, TotpSetupPanel } from './totp-setup-panel';

/**
 * A signed-in person adds (or replaces) their authenticator: a new key from the identity provider,
 * its first code, TOTP turned on and preferred, then a fresh set of recovery codes shown once.
 */
export function TotpEnrolment({ onDone }: { onDone: () => void }) {
  const [details, setDetails] = useState<SetUpTOTPOutput | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  // One key per visit: each AssociateSoftwareToken replaces the pending key (React runs effects twice in development).
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    setUpTOTP().then(setDetails, showAuthError);
  }, []);

  async function verify(code: string) {
    await verifyTOTPSetup({ code });
    await updateMFAPreference({ totp: 'PREFERRED' });
    try {
      setCodes(await freshRecoveryCodes());
    } catch (error) {
      showAuthError(error);
      onDone();
    }
  }

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={onDone} />;
  if (!details) return <Skeleton className="h-80" />;
  return (
    <TotpSetupPanel
      secret={details.sharedSecret}
      uri={details.getSetupUri(TOTP_ISSUER).toString()}
      onVerify={verify}
    />
  );
}
