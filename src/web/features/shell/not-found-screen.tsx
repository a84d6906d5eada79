import { isPortalPath, ROUTE_PATHS } from '@domain/route-guard';
import { Link, useLocation } from '@tanstack/react-router';
import { buttonVariants } from '@web/ui';
import type { TNotFoundData } from '../../lib/route-guard';

/** 404 for an unmatched URL ("Page not found: {path}") or a failed route check ("Page Not Found: {fullPath}"). */
export function NotFoundScreen({ data }: { data?: unknown }) {
  const location = useLocation();
  const invalidRoute = (data as TNotFoundData | undefined)?.invalidRoute === true;
  const fullPath = `${location.pathname}${location.searchStr ?? ''}${location.hash ? `#${location.hash}` : ''}`;
  const message = invalidRoute ? `Page Not Found: ${fullPath}` : `Page not found: ${location.pathname}`;
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-6xl font-bold tracking-tight text-primary">404</p>
      <h1 className="max-w-xl break-all text-lg font-medium">{message}</h1>
      <Link
        to={isPortalPath(location.pathname) ? ROUTE_PATHS['clientportal-index'] : '/'}
        className={buttonVariants({ className: 'mt-2' })}
      >
        Go to Home
      </Link>
    </main>
  );
}
