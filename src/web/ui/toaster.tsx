import { ERROR_TOAST_MS } from '@domain/constants';
import { Toaster as Sonner } from 'sonner';
import { useTheme } from './theme';

export { toast } from 'sonner';

/**
 * Render once in the app shell. Top-centre with rich colours and a close button (DESIGN.md); follows the
 * app's theme rather than the OS, so a user who chose dark gets dark toasts on a light system.
 * On a phone (sonner's mobile layout, up to 600 px) toasts span the width, so they start below the
 * top bar and a drawer's header, leaving its title and close button in view. Their colours are
 * darkened to AA contrast in styles.css.
 */
export function Toaster() {
  const { resolved } = useTheme();
  return (
    <Sonner
      position="top-center"
      richColors
      closeButton
      theme={resolved}
      // SPEC.md §9: error toasts stay 4000 ms; the others use the same so nothing vanishes unread sooner.
      duration={ERROR_TOAST_MS}
      mobileOffset={{ top: '4.5rem' }}
      toastOptions={{
        className: 'font-sans text-sm',
        // WCAG 2.5.8: the close button is a 24 px target (sonner draws it at 20).
        classNames: { closeButton: '!size-6' },
      }}
    />
  );
}
