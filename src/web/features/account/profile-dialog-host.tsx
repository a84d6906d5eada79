import { lazy, Suspense, useRef, useSyncExternalStore } from 'react';

// The dialog lives in the layout, not in the user menu: the menu unmounts its items when it closes.
let isOpen = false;
const listeners = new Set<() => void>();
function setOpen(next: boolean) {
  isOpen = next;
  for (const listener of listeners) listener();
}

/** Opens "My profile" (the user menu's item calls it). */
export function openProfileDialog() {
  setOpen(true);
}

// The form (react-hook-form, the resolver) comes when the dialog is first opened, not with every
// staff page: it was about 15 KB of the shell's first load.
const ProfileDialog = lazy(() => import('./profile-dialog').then((m) => ({ default: m.ProfileDialog })));

/** Mounted once in the main layout. */
export function ProfileDialogHost() {
  const open = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => isOpen,
  );
  // Once opened it stays mounted, so closing keeps the dialog's own exit and focus return.
  const opened = useRef(false);
  if (open) opened.current = true;
  if (!opened.current) return null;
  return (
    <Suspense fallback={null}>
      <ProfileDialog open={open} onOpenChange={setOpen} />
    </Suspense>
  );
}
