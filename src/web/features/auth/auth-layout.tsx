import { Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BrandMark } from '../../ui/brand-mark';

/** The auth layout: a centred card on a quiet background, for the steps around signing in. */
export function AuthLayout() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-6 px-4 py-10">
      <div className="flex items-center gap-2">
        <BrandMark className="size-8" />
        <span className="text-lg font-semibold">Practice</span>
      </div>
      <div className="w-full max-w-md rounded-xl border border-border bg-surface p-6 shadow-sm sm:p-8">
        <Outlet />
      </div>
    </main>
  );
}

/** The standalone pages (login, register) carry no layout: a brand panel beside the form on large screens. */
export function StandalonePage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-full">
      <aside
        aria-label="About Practice"
        className="hidden flex-1 flex-col justify-between bg-primary p-12 text-primary-fg lg:flex"
      >
        <div className="flex items-center gap-2">
          <BrandMark className="size-9 rounded-md ring-2 ring-white/30" />
          <span className="text-xl font-semibold">Practice</span>
        </div>
        <div className="max-w-md">
          <p className="text-3xl font-semibold leading-tight">Your whole practice, in one place.</p>
          <p className="mt-4 text-primary-fg/90">
            Clients, compliance work, documents and your team — with a portal your clients will actually use.
          </p>
        </div>
        <p className="text-sm text-primary-fg/90">For tax and accounting firms</p>
      </aside>
      <main className="flex flex-1 items-center justify-center px-4 py-10">
        <div className="w-full max-w-sm">{children}</div>
      </main>
    </div>
  );
}

export function AuthHeading({ title, description }: { title: string; description?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {description && <p className="mt-1 text-sm text-muted-fg">{description}</p>}
    </div>
  );
}
