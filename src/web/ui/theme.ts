// Light, dark or follow the system. The choice lives under the same localStorage key that
// public/theme.js reads before first paint, so the page never flashes the wrong theme.

import { useSyncExternalStore } from 'react';

export const THEME_STORAGE_KEY = 'practice.theme';

export type Theme = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';
export type ThemeState = { theme: Theme; resolved: ResolvedTheme };

const DARK_QUERY = '(prefers-color-scheme: dark)';

function readStored(): Theme {
  try {
    const t = window.localStorage.getItem(THEME_STORAGE_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    // Storage can throw (private mode, blocked cookies): fall back to the system.
    return 'system';
  }
}

function systemIsDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

export function resolveTheme(theme: Theme): ResolvedTheme {
  if (theme === 'system') return systemIsDark() ? 'dark' : 'light';
  return theme;
}

let state: ThemeState | undefined;
const listeners = new Set<() => void>();
let detach: (() => void) | undefined;

function current(): ThemeState {
  if (!state) {
    const theme = readStored();
    state = { theme, resolved: resolveTheme(theme) };
  }
  return state;
}

function commit(theme: Theme) {
  state = { theme, resolved: resolveTheme(theme) };
  const root = document.documentElement;
  root.classList.toggle('dark', state.resolved === 'dark');
  root.style.colorScheme = state.resolved;
  for (const l of listeners) l();
}

/** The stored choice and what it resolves to right now. */
export function getTheme(): ThemeState {
  return current();
}

/** Persists the choice ('system' removes the key, as theme.js expects) and applies it at once. */
export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not persisted, but still applied for this page.
  }
  commit(theme);
}

function attach() {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : undefined;
  // Follow the operating system while the choice is 'system' (e.g. an automatic evening switch).
  const onSystem = () => {
    if (current().theme === 'system') commit('system');
  };
  // Another tab changed the choice.
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) commit(readStored());
  };
  media?.addEventListener('change', onSystem);
  window.addEventListener('storage', onStorage);
  return () => {
    media?.removeEventListener('change', onSystem);
    window.removeEventListener('storage', onStorage);
  };
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  if (!detach) detach = attach();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && detach) {
      detach();
      detach = undefined;
    }
  };
}

const serverState: ThemeState = { theme: 'system', resolved: 'light' };

/** The theme for a component, re-rendering when it changes here, in another tab or in the OS. */
export function useTheme(): ThemeState & { setTheme: (theme: Theme) => void } {
  const s = useSyncExternalStore(subscribeTheme, current, () => serverState);
  return { ...s, setTheme };
}
