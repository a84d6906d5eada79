import { AlertDialog } from 'radix-ui';
import { Button } from './button';
import type { TConfirmRequest } from './confirm-dialog';
import { overlayClasses } from './dialog';

/** The pending confirm() request as Radix's alert dialog (confirm-dialog.tsx keeps the queue). */
export default function ConfirmDialogView({
  current,
  settle,
}: {
  current: TConfirmRequest;
  settle(id: number, ok: boolean): void;
}) {
  return (
    <AlertDialog.Root
      open
      onOpenChange={(open) => {
        if (!open) settle(current.id, false);
      }}
    >
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
    </AlertDialog.Root>
  );
}
