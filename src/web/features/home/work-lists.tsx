import { taskHref } from '@domain/dashboard';
import { daysApart } from '@domain/days';
import type { TFormatter } from '@domain/format';
import { Link } from '@tanstack/react-router';
import {
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  cardLinkClasses,
  EmptyState,
  StatusBadge,
  useFormat,
} from '@web/ui';
import { CalendarCheck, CalendarRange, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { HrefLink } from './href-link';
import type { TDashboard } from './use-dashboard';

type TTask = NonNullable<TDashboard['tasks']>['dueToday']['rows'][number];
type TProject = NonNullable<TDashboard['projects']>['upcoming']['rows'][number];

/** "Today", "Tomorrow", "in 5 days", with the date: due days are the firm's calendar days. */
export function dueLabel(due: string, today: string, format: TFormatter): string {
  const days = daysApart(today, due);
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
          <HrefLink href={props.allHref} className={cardLinkClasses}>
            View all
          </HrefLink>
        ) : null}
      </CardHeader>
      <CardContent>{props.children}</CardContent>
    </Card>
  );
}

/**
 * A task or project in a list: its whole title and context (wrapped, never cut off), then when it
 * is due and its status, beside it when there is room and on a line of their own on a phone.
 */
function WorkRow(props: { href: string; title: string; context: string; due: string; status: string }) {
  return (
    <li>
      <HrefLink
        href={props.href}
        className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md px-1 py-2 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="min-w-0 flex-1 basis-48 break-words">
          <span className="block text-sm font-medium text-fg">{props.title}</span>
          <span className="block text-xs text-muted-fg">{props.context}</span>
        </span>
        <span className="flex shrink-0 items-center gap-3">
          <span className="text-xs text-muted-fg">{props.due}</span>
          <StatusBadge status={props.status} />
        </span>
      </HrefLink>
    </li>
  );
}

function TaskRows({ rows, today }: { rows: TTask[]; today: string }) {
  const format = useFormat();
  return (
    <ul className="divide-y divide-border">
      {rows.map((task) => (
        <WorkRow
          key={task.id}
          href={taskHref(task.id)}
          title={task.title}
          context={[task.clientName, task.projectName].filter(Boolean).join(' · ') || 'Internal'}
          due={dueLabel(task.dueDate, today, format)}
          status={task.status}
        />
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
            <WorkRow
              key={project.id}
              href={`/projects/${project.id}`}
              title={project.name}
              context={[project.clientName, project.serviceName].filter(Boolean).join(' · ')}
              due={dueLabel(project.dueDate, data.today, format)}
              status={project.status}
            />
          ))}
        </ul>
      ) : (
        <EmptyState
          icon={Sparkles}
          title="No deadlines in the next two weeks"
          message="Projects appear here as their due dates come near."
          action={
            <Link to="/clients" className={cardLinkClasses}>
              Go to clients
            </Link>
          }
        />
      )}
    </ListCard>
  );
}
