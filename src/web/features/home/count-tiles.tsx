import { dashboardLinks } from '@domain/dashboard';
import { cn, useFormat } from '@web/ui';
import type { LucideIcon } from 'lucide-react';
import { AlertTriangle, CalendarClock, FolderClock, ListTodo, Users } from 'lucide-react';
import { HrefLink } from './href-link';
import type { TDashboard } from './use-dashboard';

type TTile = { key: string; label: string; value: number; href: string; icon: LucideIcon; alert?: boolean };

/**
 * The numbers of the day; each opens the list it counts. A tile is named by what it shows ("My
 * overdue tasks 6"), so a voice user can say what they see.
 */
export function CountTiles({ data }: { data: TDashboard }) {
  const format = useFormat();
  const links = dashboardLinks(data);
  const tiles: TTile[] = [];
  if (data.tasks) {
    tiles.push(
      {
        key: 'my-overdue',
        label: 'My overdue tasks',
        value: data.tasks.myOverdue,
        href: links.myOverdue,
        icon: AlertTriangle,
        alert: true,
      },
      {
        key: 'my-open',
        label: 'My open tasks',
        value: data.tasks.myOpen,
        href: links.myOpen,
        icon: ListTodo,
      },
      {
        key: 'firm-overdue',
        label: data.assignedClientsOnly ? 'Overdue tasks on my clients' : 'Overdue tasks in the firm',
        value: data.tasks.firmOverdue,
        href: links.firmOverdue,
        icon: Users,
        alert: true,
      },
    );
  }
  if (data.projects) {
    tiles.push(
      {
        key: 'projects-overdue',
        label: 'Overdue projects',
        value: data.projects.overdue,
        href: links.projectsOverdue,
        icon: FolderClock,
        alert: true,
      },
      {
        key: 'projects-week',
        label: 'Projects due this week',
        value: data.projects.dueThisWeek,
        href: links.projectsDueThisWeek,
        icon: CalendarClock,
      },
    );
  }
  if (!tiles.length) return null;
  return (
    <ul aria-label="Counts" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {tiles.map((tile) => (
        <li key={tile.key}>
          <HrefLink
            href={tile.href}
            data-count={tile.key}
            className="group flex h-full flex-col gap-2 rounded-lg border border-border bg-surface p-4 shadow-xs outline-none transition-colors hover:border-primary/40 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="flex items-center gap-2 text-sm text-muted-fg">
              <tile.icon aria-hidden="true" className="size-4" />
              {tile.label}
            </span>
            <span
              className={cn(
                'text-2xl font-semibold tabular-nums text-fg group-hover:text-primary',
                tile.alert && tile.value > 0 && 'text-red-600 dark:text-red-400',
              )}
            >
              {format.number(tile.value)}
            </span>
          </HrefLink>
        </li>
      ))}
    </ul>
  );
}
