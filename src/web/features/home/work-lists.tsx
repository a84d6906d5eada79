import { taskHref } from '@domain/dashboard';
import type { TFormatter } from '@domain/format';
import { Link } from '@tanstack/react-router';
import { Card, CardContent, CardHeader, CardTitle, EmptyState, StatusBadge, useFormat } from '@web/ui';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import { CalendarCheck, CalendarRange, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { HrefLink } from './href-link';
import type { TDashboard } from './use-dashboard';

type TTask = NonNullable<TDashboard['tasks']>['dueToday']['rows'][number];
type TProject = NonNullable<TDashboard['projects']>['upcoming']['rows'][number];

/** "Today", "Tomorrow", "in 5 days", with the date: due days are the firm's calendar days. */
export function dueLabel(due: string, today: string, format: TFormatter): string {
  const days = differenceInCalendarDays(parseISO(due), parseISO(today));
  const when = days === 0 ? 'Today' : days === 1 ? 'Tomorrow' : `In ${days} days`;
  return `${when} · ${format.date(due, 'weekday')}`;
}

function ListCard(props: {
  title: string;
  total: number;
  shown: number;
  allHref: string;
  children: ReactNode;
}) {
  const format = useFormat();
  return (
    <Card aria-label={props.title}>
      <CardHeader>
        <CardTitle>
          {props.title} <span className="font-normal text-muted-fg">({format.number(props.total)})</span>
        </CardTitle>
        {props.total > props.shown ? (
          <HrefLink href={props.allHref} className="text-sm text-primary hover:underline">
            View all
          </HrefLink>
        ) : null}
      </CardHeader>
      <CardContent>{props.children}</CardContent>
    </Card>
  );
}

function TaskRows({ rows, today }: { rows: TTask[]; today: string }) {
  const format = useFormat();
  return (
    <ul className="divide-y divide-border">
      {rows.map((task) => (
        <li key={task.id}>
          <HrefLink
            href={taskHref(task.id)}
            className="flex items-center gap-3 rounded-md px-1 py-2 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium text-fg">{task.title}</span>
              <span className="block truncate text-xs text-muted-fg">
                {[task.clientName, task.projectName].filter(Boolean).join(' · ') || 'Internal'}
              </span>
            </span>
            <span className="hidden text-xs text-muted-fg sm:inline">
              {dueLabel(task.dueDate, today, format)}
            </span>
            <StatusBadge status={task.status} />
          </HrefLink>
        </li>
      ))}
    </ul>
  );
}

export function MyWeek({ data, links }: { data: TDashboard; links: { today: string; week: string } }) {
  if (!data.tasks) return null;
  const { dueToday, dueThisWeek } = data.tasks;
  return (
    <>
      <ListCard title="Due today" total={dueToday.total} shown={dueToday.rows.length} allHref={links.today}>
        {dueToday.rows.length ? (
          <TaskRows rows={dueToday.rows} today={data.today} />
        ) : (
          <EmptyState
            icon={CalendarCheck}
            title="Nothing due today"
            message="None of your tasks fall due today."
          />
        )}
      </ListCard>
      <ListCard
        title="Later this week"
        total={dueThisWeek.total}
        shown={dueThisWeek.rows.length}
        allHref={links.week}
      >
        {dueThisWeek.rows.length ? (
          <TaskRows rows={dueThisWeek.rows} today={data.today} />
        ) : (
          <EmptyState
            icon={CalendarRange}
            title="A clear week"
            message="No other task of yours is due in the next six days."
          />
        )}
      </ListCard>
    </>
  );
}

export function UpcomingDeadlines({ data, allHref }: { data: TDashboard; allHref: string }) {
  const format = useFormat();
  if (!data.projects) return null;
  const { upcoming } = data.projects;
  return (
    <ListCard
      title="Upcoming deadlines"
      total={upcoming.total}
      shown={upcoming.rows.length}
      allHref={allHref}
    >
      {upcoming.rows.length ? (
        <ul className="divide-y divide-border">
          {upcoming.rows.map((project: TProject) => (
            <li key={project.id}>
              <HrefLink
                href={`/projects/${project.id}`}
                className="flex items-center gap-3 rounded-md px-1 py-2 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-fg">{project.name}</span>
                  <span className="block truncate text-xs text-muted-fg">
                    {[project.clientName, project.serviceName].filter(Boolean).join(' · ')}
                  </span>
                </span>
                <span className="hidden text-xs text-muted-fg sm:inline">
                  {dueLabel(project.dueDate, data.today, format)}
                </span>
                <StatusBadge status={project.status} />
              </HrefLink>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState
          icon={Sparkles}
          title="No deadlines in the next two weeks"
          message="Projects appear here as their due dates come near."
          action={
            <Link to="/clients" className="text-sm text-primary hover:underline">
              Go to clients
            </Link>
          }
        />
      )}
    </ListCard>
  );
}
