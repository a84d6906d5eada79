import { Link, type ToOptions } from '@tanstack/react-router';
import { ChevronRight, Home, type LucideIcon } from 'lucide-react';
import { cn } from './cn';

/**
 * A place in the app, typed against the route tree: `{ to: '/clients' }`, or a route with
 * parameters and their values, `{ to: '/clients/$id', params: { id } }`.
 */
export type BreadcrumbTarget = Pick<ToOptions, 'to' | 'params'>;

/** A crumb; where it leads, if anywhere. The last item is the current page and is not a link. */
export type BreadcrumbItem = { label: string; icon?: LucideIcon } & Partial<BreadcrumbTarget>;

export type BreadcrumbsProps = {
  items: BreadcrumbItem[];
  className?: string;
  /** Where the Home crumb leads: the index, or the client portal's home in the portal. */
  home?: BreadcrumbTarget;
};

// A crumb is current only on its own page (and then it is not a link): /admin is not "current"
// on /admin/roles, as the router's default, fuzzy matching would mark it.
const exact = { exact: true };

// At least 24 px tall (and the home icon 24 px wide): WCAG 2.5.8's smallest target.
const linkClasses =
  'inline-flex min-h-6 items-center gap-1 rounded-sm text-muted-fg transition-colors hover:text-fg focus-visible:outline-2 focus-visible:outline-ring';

/** SPEC.md §2: Home (home icon, leads to the index), then a list of links (label, icon, to). */
export function Breadcrumbs({ items, className, home = { to: '/' } }: BreadcrumbsProps) {
  return (
    <nav aria-label="Breadcrumb" className={cn('min-w-0 text-sm', className)}>
      <ol className="flex min-w-0 flex-wrap items-center gap-1">
        <li className="inline-flex items-center">
          <Link
            to={home.to}
            params={home.params}
            activeOptions={exact}
            className={cn(linkClasses, 'min-w-6 justify-center')}
            aria-current={items.length === 0 ? 'page' : undefined}
          >
            <Home aria-hidden="true" className="size-4" />
            <span className="sr-only">Home</span>
          </Link>
        </li>
        {items.map((item, i) => {
          const last = i === items.length - 1;
          const Icon = item.icon;
          const content = (
            <>
              {Icon ? <Icon aria-hidden="true" className="size-3.5" /> : null}
              <span className="truncate">{item.label}</span>
            </>
          );
          return (
            <li
              key={JSON.stringify([item.to, item.params, item.label])}
              className="inline-flex min-w-0 items-center gap-1"
            >
              <ChevronRight aria-hidden="true" className="size-3.5 shrink-0 text-muted-fg/60" />
              {last ? (
                <span
                  aria-current="page"
                  className="inline-flex min-w-0 items-center gap-1 font-medium text-fg"
                >
                  {content}
                </span>
              ) : item.to ? (
                <Link
                  to={item.to}
                  params={item.params}
                  activeOptions={exact}
                  className={cn(linkClasses, 'min-w-0')}
                >
                  {content}
                </Link>
              ) : (
                <span className="inline-flex min-w-0 items-center gap-1 text-muted-fg">{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
