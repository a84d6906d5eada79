import { Button, Card, CardHeader, CardTitle, confirm, PageHeader } from '@web/ui';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { signOutStaff } from '../../lib/session';
import { useProfile } from '../shell/use-profile';
import { SecurityDeleteAccount } from './security-delete-account';
import { SecurityDevices } from './security-devices';
import { SecurityMfaCard } from './security-mfa-card';
import { SecuritySignIns } from './security-sign-ins';

/** /my-account/security: two-step sign-in, the member's devices, sign-ins, signing out everywhere and leaving. */
export function SecurityPage() {
  const profile = useProfile();
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 p-6">
      <PageHeader
        trail={[{ label: 'Security' }]}
        title="Security"
        description="How you sign in, where you are signed in, and your account."
        className="pb-0"
      />
      <SecurityMfaCard />
      <SecurityDevices />
      <SignOutEverywhere />
      <SecuritySignIns />
      <SecurityDeleteAccount isOwner={profile.isOwner} />
    </div>
  );
}

function SignOutEverywhere() {
  const [leaving, setLeaving] = useState(false);
  async function signOutEverywhere() {
    const ok = await confirm({
      title: 'Sign out everywhere?',
      message: 'Every browser and app signed in to your account is signed out, this one too.',
      confirmLabel: 'Sign out everywhere',
      danger: true,
    });
    if (!ok) return;
    setLeaving(true);
    await signOutStaff({ everywhere: true });
  }
  return (
    <Card aria-labelledby="sign-out-everywhere-title">
      <CardHeader>
        <div>
          <CardTitle id="sign-out-everywhere-title">Sign out everywhere</CardTitle>
          <p className="text-sm text-muted-fg">
            Lost a phone or signed in on a shared computer? End every sign-in of yours at once.
          </p>
        </div>
        <Button variant="outline" size="sm" loading={leaving} onClick={() => void signOutEverywhere()}>
          <LogOut aria-hidden />
          Sign out everywhere
        </Button>
      </CardHeader>
    </Card>
  );
}
