import { Spinner } from '@web/ui';
import { useEffect, useRef } from 'react';
import { signOutStaff } from '../../lib/session';

export function LogoutPage() {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOutStaff();
  }, []);
  return (
    <p role="status" className="flex items-center gap-2 text-muted-fg">
      <Spinner className="size-4" /> Signing you out…
    </p>
  );
}
