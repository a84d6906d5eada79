import { ERROR_TOAST_MS } from '@domain/constants';
import { type ReactNode, useEffect, useState } from 'react';
import type { ExternalToast } from 'sonner';
import { useTheme } from './theme';

// The toaster on demand: sonner (about 8 KB on the wire) is not in the first page's chunks. `toast.*`
// stays synchronous: a toast raised before sonner has arrived is queued and shown, in order, as soon
// as its <Toaster> has mounted. It is fetched with the first toast, or earlier with the first key or
// tap on the page (installToasterLoading).

type TView = typeof import('./toaster-view');
type TKind = 'success' | 'error' | 'info';
type TToast = [kind: TKind, message: ReactNode, data?: ExternalToast];

let view: TView | null = null;
let loading: Promise<void> | null = null;
/** A <Toaster> is on the page with sonner subscribed: toasts go straight to it. */
let live = false;
const queue: TToast[] = [];
const waiting = new Set<(loaded: TView) => void>();

function load(): void {
  if (view || loading) return;
  loading = import('./toaster-view').then(
    (loaded: TView | undefined) => {
      // Nothing when the guard reloads the page for a failed load (Vite's helper then resolves).
      if (!loaded) {
        loading = null;
        return;
      }
      view = loaded;
      for (const show of waiting) show(loaded);
    },
    () => {
      // SPEC.md's chunk-reload rule has had its say (main.tsx's guard); if the page stays, the
      // next toast tries again.
      loading = null;
    },
  );
}

/**
 * Called by main.tsx: the first key or tap on the page fetches the toaster ahead of a toast, so an
 * action's toast is drawn at once, and a "Network Error" toast raised after the network went does not
 * need the network. A failed fetch meets SPEC.md's chunk-reload rule as every chunk does.
 */
export function installToasterLoading(): void {
  for (const type of ['pointerdown', 'keydown'])
    window.addEventListener(type, load, { once: true, capture: true, passive: true });
  // Leaving the tab too: a phone put away and taken out again offline refetches on focus, and its
  // "Network Error" toast must not need the network (a failed fetch would reload the page, offline).
  window.addEventListener('blur', load, { once: true });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') load();
  });
}

function show(kind: TKind, message: ReactNode, data?: ExternalToast): void {
  if (view && live) {
    view.toast[kind](message, data);
    return;
  }
  queue.push([kind, message, data]);
  load();
}

/** sonner's `toast.success/error/info`, available before sonner is. */
export const toast = {
  success: (message: ReactNode, data?: ExternalToast) => show('success', message, data),
  error: (message: ReactNode, data?: ExternalToast) => show('error', message, data),
  info: (message: ReactNode, data?: ExternalToast) => show('info', message, data),
};

/**
 * Render once in the app shell. Top-centre with rich colours and a close button (DESIGN.md); follows the
 * app's theme rather than the OS, so a user who chose dark gets dark toasts on a light system.
 * On a phone (sonner's mobile layout, up to 600 px) toasts span the width, so they start below the
 * top bar and a drawer's header, leaving its title and close button in view. Their colours are
 * darkened to AA contrast in base.css. Draws nothing until sonner has arrived.
 */
export function Toaster() {
  const { resolved } = useTheme();
  const [loaded, setLoaded] = useState(view);
  useEffect(() => {
    if (view) setLoaded(view);
    waiting.add(setLoaded);
    return () => void waiting.delete(setLoaded);
  }, []);
  // After sonner's own effects (a child's run first): it listens now, so the queue can be shown.
  useEffect(() => {
    if (!loaded) return;
    live = true;
    for (const [kind, message, data] of queue.splice(0)) loaded.toast[kind](message, data);
    return () => {
      live = false;
    };
  }, [loaded]);
  if (!loaded) return null;
  const { Sonner } = loaded;
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
