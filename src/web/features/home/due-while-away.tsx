import { taskHref } from '@domain/dashboard';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader, CardTitle, StatusBadge, useFormat } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { HrefLink } from './href-link';

/**
 * Before the member's approved leave starts: their open tasks due while they are away, to hand
 * over in time. Shows nothing when no leave is coming.
 */
export function DueWhileAway() {
  const format = useFormat();
  const { data } = useQuery(trpc.dashboard.dueWhileAway.queryOptions());
  if (!data?.length) return null;
  return (
    <Card aria-label="Due while you are away" className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Due while you are away</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {data.map((leave) => (
          <section key={leave.id} aria-label={leave.typeName} className="flex flex-col gap-1">
            <h3 className="text-sm text-muted-fg">
              {leave.typeName}:{' '}
              {leave.startDate === leave.endDate
                ? format.date(leave.startDate, 'weekday')
                : `${format.date(leave.startDate, 'weekday')} to ${format.date(leave.endDate, 'weekday')}`}
            </h3>
            {leave.tasks.length ? (
              <ul className="divide-y divide-border">
                {leave.tasks.map((task) => (
                  <li key={task.id}>
                    <HrefLink
                      href={taskHref(task.id)}
                      className="flex items-center gap-3 rounded-md px-1 py-2 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <span className="min-w-0 flex-1">
                        <span className="block truncate text-sm font-medium text-fg">{task.title}</span>
                        <span className="block truncate text-xs text-muted-fg">
                          {task.clientName ?? 'Internal'}
                        </span>
                      </span>
                      <span className="text-xs text-muted-fg">
                        Due {format.date(task.dueDate, 'weekday')}
                      </span>
                      <StatusBadge status={task.status} />
                    </HrefLink>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-fg">Nothing of yours falls due while you are away.</p>
            )}
          </section>
        ))}
      </CardContent>
    </Card>
  );
}
