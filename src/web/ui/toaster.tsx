import { ERROR_TOAST_MS } from '@domain/constants';
import { Toaster as Sonner } from 'sonner';
import { useTheme } from './theme';

export { toast } from 'sonner';

/**
 * Render once in the app shell. Top-centre with rich colours and a close button (DESIGN.md); follows the
 * app's theme rather than the OS, so a user who chose dark gets dark toasts on a light system.
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
      toastOptions={{ className: 'font-sans text-sm' }}
    />
  );
}
