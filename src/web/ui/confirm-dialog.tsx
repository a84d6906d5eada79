import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';

export type ConfirmOptions = {
  title: ReactNode;
  message?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: red confirm button. Focus starts on Cancel either way. */
  danger?: boolean;
};

export type TConfirmRequest = ConfirmOptions & { id: number; resolve: (ok: boolean) => void };

// A tiny store outside React, so `confirm()` works from an event handler, a mutation callback or a
// loader without threading context through. Requests queue: a second confirm waits for the first.
let queue: TConfirmRequest[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Asks the person to confirm; resolves true on the confirm button, false on cancel, Escape or close. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    queue = [...queue, { ...options, id: nextId++, resolve }];
    emit();
  });
}

function settle(id: number, ok: boolean) {
  const request = queue.find((r) => r.id === id);
  if (!request) return;
  queue = queue.filter((r) => r.id !== id);
  emit();
  request.resolve(ok);
}

// The dialog itself (Radix's, with its focus trap and scroll lock) is fetched with the first
// confirm(), not with every first page: most pages never ask.
const ConfirmDialogView = lazy(() => import('./confirm-dialog-view'));

/** Render once in the app shell; it shows the pending confirm() requests one at a time. */
export function ConfirmDialogHost() {
  const current = useSyncExternalStore(
    subscribe,
    () => queue[0],
    () => undefined,
  );
  return current ? (
    <Suspense fallback={null}>
      <ConfirmDialogView current={current} settle={settle} />
    </Suspense>
  ) : null;
}
