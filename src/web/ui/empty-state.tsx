import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

export type EmptyStateProps = {
  icon?: LucideIcon;
  title: ReactNode;
  message?: ReactNode;
  /** What to do next, e.g. a "New client" button or "Clear filters". */
  action?: ReactNode;
  className?: string;
};

export function EmptyState({ icon: Icon, title, message, action, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 px-6 py-12 text-center', className)}>
      {Icon ? (
        <div className="mb-1 grid size-10 place-items-center rounded-full bg-muted text-muted-fg">
          <Icon aria-hidden="true" className="size-5" />
        </div>
      ) : null}
      <p className="text-sm font-medium text-fg">{title}</p>
      {message ? <p className="max-w-sm text-sm text-muted-fg">{message}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
