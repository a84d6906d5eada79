import { Outlet } from '@tanstack/react-router';
import { ConfirmDialogHost } from '@web/ui';
import { useFatalError } from '../../lib/fatal-error';
import { ServerErrorScreen } from './server-error-screen';

/** Page outlet and the confirmation dialog, inside the default layout (the toast area is in main.tsx). */
export function AppShell() {
  const fatal = useFatalError();
  return (
    <>
      {fatal ? <ServerErrorScreen /> : <Outlet />}
      <ConfirmDialogHost />
    </>
  );
}
