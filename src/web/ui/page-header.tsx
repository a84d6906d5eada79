import type { ReactNode } from 'react';
import { cn } from './cn';

export type PageHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right; they wrap under the title on a narrow screen. */
  actions?: ReactNode;
  /** Above the title, typically <Breadcrumbs />. */
  breadcrumbs?: ReactNode;
  className?: string;
};

/** The top of a screen: the page's single h1, a line of context, and its primary actions. */
export function PageHeader({ title, description, actions, breadcrumbs, className }: PageHeaderProps) {
  return (
    <header className={cn('flex flex-col gap-2 pb-4', className)}>
      {breadcrumbs}
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
