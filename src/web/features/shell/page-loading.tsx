import { Spinner } from '@web/ui';

/**
 * What a route shows while its data is on the way, a 5xx being retried included: never a blank
 * page. The router shows it after its pending delay (main.tsx).
 */
export function PageLoading() {
  return (
    <div className="grid min-h-full place-items-center p-16" data-testid="page-loading">
      <div className="flex items-center gap-2 text-sm text-muted-fg">
        <Spinner label={null} className="size-5" />
        <span role="status">Loading…</span>
      </div>
    </div>
  );
}
