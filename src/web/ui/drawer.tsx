import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import { overlayClasses } from './dialog';
import { IconButton } from './icon-button';

export const Drawer = DialogPrimitive.Root;
export const DrawerTrigger = DialogPrimitive.Trigger;
export const DrawerClose = DialogPrimitive.Close;

export type DrawerContentProps = Omit<ComponentProps<typeof DialogPrimitive.Content>, 'title'> & {
  title: ReactNode;
  description?: ReactNode;
  footer?: ReactNode;
  side?: 'right' | 'left';
  size?: 'sm' | 'md' | 'lg';
};

const widths = { sm: 'sm:max-w-sm', md: 'sm:max-w-md', lg: 'sm:max-w-2xl' };

/**
 * A side sheet for detail and edit panels that keep the list behind in view. A modal dialog underneath,
 * so focus trapping, Escape and focus return behave exactly as in Dialog. Full width on a phone.
 */
export function DrawerContent({
  title,
  description,
  footer,
  side = 'right',
  size = 'md',
  className,
  children,
  ...props
}: DrawerContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content
        {...(description ? {} : { 'aria-describedby': undefined })}
        className={cn(
          'fixed inset-y-0 z-50 flex w-full flex-col border-border bg-surface text-fg shadow-xl focus:outline-none',
          side === 'right' ? 'right-0 border-l' : 'left-0 border-r',
          widths[size],
          className,
        )}
        {...props}
      >
        <div className="flex items-start justify-between gap-4 border-b border-border px-5 py-4">
          <div className="min-w-0">
            {/* Wrapped, never cut off: on a phone a one-line title would hide most of itself. */}
            <DialogPrimitive.Title className="break-words text-base font-semibold">
              {title}
            </DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="mt-1 text-sm text-muted-fg">
                {description}
              </DialogPrimitive.Description>
            ) : null}
          </div>
          <DialogPrimitive.Close asChild>
            <IconButton aria-label="Close" size="sm" className="-mr-1.5 text-muted-fg">
              <X />
            </IconButton>
          </DialogPrimitive.Close>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 text-sm">{children}</div>
        {footer ? (
          <div className="flex justify-end gap-2 border-t border-border px-5 py-3">{footer}</div>
        ) : null}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
