import { Outlet } from '@tanstack/react-router';
import { ConfirmDialogHost, Toaster } from '@web/ui';
import { useFatalError } from '../../lib/fatal-error';
import { ServerErrorScreen } from './server-error-screen';

/** Page outlet, toast area at top-centre and the confirmation dialog, inside the default layout. */
export function AppShell() {
  const fatal = useFatalError();
  return (
    <>
      {fatal ? <ServerErrorScreen /> : <Outlet />}
      <Toaster />
      <ConfirmDialogHost />
    </>
  );
}
