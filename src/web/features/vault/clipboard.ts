import { VAULT_CLIPBOARD_CLEAR_MS } from '@domain/vault';

// A copied password leaves the clipboard after VAULT_CLIPBOARD_CLEAR_MS. The timer lives outside
// any component, so leaving the page does not cancel it.

let timer: ReturnType<typeof setTimeout> | undefined;

async function canRead(): Promise<boolean> {
  try {
    const status = await navigator.permissions.query({ name: 'clipboard-read' as PermissionName });
    return status.state === 'granted';
  } catch {
    return false;
  }
}

/**
 * Clears the clipboard if it still holds the value. When the browser will not let us read it
 * (no permission), it is cleared anyway: the secret's safety comes before whatever might have been
 * copied since. A page without focus may not write; it retries when the window gets focus back.
 */
async function clearIfStill(value: string): Promise<void> {
  if (await canRead()) {
    try {
      if ((await navigator.clipboard.readText()) !== value) return;
    } catch {
      // Unreadable right now: fall through and clear.
    }
  }
  try {
    await navigator.clipboard.writeText('');
  } catch {
    window.addEventListener('focus', () => void clearIfStill(value), { once: true });
  }
}

export async function copySecret(value: string): Promise<void> {
  await navigator.clipboard.writeText(value);
  clearTimeout(timer);
  timer = setTimeout(() => void clearIfStill(value), VAULT_CLIPBOARD_CLEAR_MS);
}
