import { ERROR_TOAST_MS } from '@domain/constants';
import { toast } from '@web/ui';

/** The identity provider's and Amplify's own messages are shown as they are (SPEC.md §5). */
export function showAuthError(error: unknown): void {
  const message = error instanceof Error && error.message ? error.message : 'Network Error';
  toast.error(message, { duration: ERROR_TOAST_MS });
}
