import type { ReactNode } from 'react';
import { type BreadcrumbItem, Breadcrumbs } from './breadcrumbs';
import { cn } from './cn';

export type PageHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right; they wrap under the title on a narrow screen. */
  actions?: ReactNode;
  /**
   * Where the page sits, shown as breadcrumbs above the title after Home: the sections above it as
   * links, then the page itself, e.g. `[{ label: 'Admin', to: '/admin' }, { label: 'Roles' }]`.
   */
  trail?: BreadcrumbItem[];
  className?: string;
};

/** The top of a screen: its breadcrumb trail, the page's single h1, a line of context, its primary actions. */
export function PageHeader({ title, description, actions, trail, className }: PageHeaderProps) {
  return (
    <header className={cn('flex flex-col gap-2 pb-4', className)}>
      {trail ? <Breadcrumbs items={trail} /> : null}
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h1 className="truncate text-lg font-semibold tracking-tight text-fg">{title}</h1>
          {description ? <p className="mt-0.5 text-sm text-muted-fg">{description}</p> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
    </header>
  );
}
