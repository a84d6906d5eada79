import { AlertDialog } from 'radix-ui';
import { type ReactNode, useSyncExternalStore } from 'react';
import { Button } from './button';
import { overlayClasses } from './dialog';

export type ConfirmOptions = {
  title: ReactNode;
  message?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: red confirm button. Focus starts on Cancel either way. */
  danger?: boolean;
};

type Request = ConfirmOptions & { id: number; resolve: (ok: boolean) => void };

// A tiny store outside React, so `confirm()` works from an event handler, a mutation callback or a
// loader without threading context through. Requests queue: a second confirm waits for the first.
let queue: Request[] = [];
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

/** Render once in the app shell; it shows the pending confirm() requests one at a time. */
export function ConfirmDialogHost() {
  const current = useSyncExternalStore(
    subscribe,
    () => queue[0],
    () => undefined,
  );
  return (
    <AlertDialog.Root
      open={current !== undefined}
      onOpenChange={(open) => {
        if (!open && current) settle(current.id, false);
      }}
    >
      {current ? (
        <AlertDialog.Portal>
          <AlertDialog.Overlay className={overlayClasses} />
          <AlertDialog.Content
            key={current.id}
            {...(current.message ? {} : { 'aria-describedby': undefined })}
            className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg border border-border bg-surface text-fg shadow-xl focus:outline-none"
          >
            <div className="px-5 pt-4 pb-4">
              <AlertDialog.Title className="text-base font-semibold">{current.title}</AlertDialog.Title>
              {current.message ? (
                <AlertDialog.Description className="mt-1.5 text-sm text-muted-fg">
                  {current.message}
                </AlertDialog.Description>
              ) : null}
            </div>
            <div className="flex flex-col-reverse gap-2 rounded-b-lg border-t border-border bg-muted/40 px-5 py-3 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel asChild>
                <Button variant="outline">{current.cancelLabel ?? 'Cancel'}</Button>
              </AlertDialog.Cancel>
              <AlertDialog.Action asChild>
                <Button
                  variant={current.danger ? 'danger' : 'primary'}
                  onClick={(e) => {
                    // Settle here rather than through onOpenChange, which cannot tell confirm from cancel.
                    e.preventDefault();
                    settle(current.id, true);
                  }}
                >
                  {current.confirmLabel ?? 'Confirm'}
                </Button>
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      ) : null}
    </AlertDialog.Root>
  );
}
