import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Badge, type BadgeTone, Button, Card, EmptyState, Skeleton, useFormat } from '@web/ui';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';

const route = getRouteApi('/clientportal/$clientId/calendar');

type TStatus = 'filed' | 'in_progress' | 'waiting_on_you' | 'due' | 'past';
const STATUS: Record<TStatus, { label: string; tone: BadgeTone }> = {
  filed: { label: 'Filed', tone: 'green' },
  in_progress: { label: 'In progress', tone: 'blue' },
  waiting_on_you: { label: 'Waiting on you', tone: 'yellow' },
  due: { label: 'Due', tone: 'grey' },
  past: { label: 'Past', tone: 'light-grey' },
};

/** The client's filing calendar: a fiscal year of its returns, each with its status and what to send. */
export function PortalCalendarPage() {
  const { clientId } = route.useParams();
  const format = useFormat();
  const [year, setYear] = useState<number | undefined>(undefined);
  const calendar = useQuery({
    ...trpc.clientPortalCalendar.get.queryOptions({ clientId, ...(year ? { year } : {}) }),
    placeholderData: keepPreviousData,
  });
  const data = calendar.data;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold tracking-tight">Filing calendar</h1>
        {data ? (
          <div className="flex items-center gap-1">
            <Button
              variant="outline"
              size="sm"
              aria-label="Previous year"
              onClick={() => setYear(data.year - 1)}
            >
              <ChevronLeft aria-hidden />
            </Button>
            <span className="min-w-24 text-center text-sm font-medium" aria-live="polite">
              {data.label}
            </span>
            <Button variant="outline" size="sm" aria-label="Next year" onClick={() => setYear(data.year + 1)}>
              <ChevronRight aria-hidden />
            </Button>
          </div>
        ) : null}
      </div>
      {!data ? (
        <Skeleton className="h-48" />
      ) : data.rows.length === 0 ? (
        <Card>
          <EmptyState
            icon={CalendarDays}
            title="No filings for this year"
            message="Your firm records your registrations (GST, PAN, TAN, company or LLP); the returns they call for show here."
          />
        </Card>
      ) : (
        <Card className="px-4">
          <ul className="divide-y divide-border">
            {data.rows.map((r) => (
              <li key={r.key} className="flex flex-col gap-1 py-3">
                <div className="flex items-start justify-between gap-3">
                  <span className="min-w-0 font-medium">
                    {r.filing} <span className="font-normal text-muted-fg">· {r.period}</span>
                  </span>
                  <Badge tone={r.overdue ? 'red' : STATUS[r.status].tone} dot className="shrink-0">
                    {r.overdue ? 'Overdue' : STATUS[r.status].label}
                  </Badge>
                </div>
                <p className="text-xs text-muted-fg">
                  Due {format.date(r.due)}
                  {r.extended ? ' (extended)' : ''} · {r.authority}
                </p>
                {r.waiting.length ? (
                  <div className="text-sm">
                    <p className="font-medium">Please send:</p>
                    <ul className="list-disc pl-5">
                      {r.waiting.map((w) => (
                        <li key={w}>{w}</li>
                      ))}
                    </ul>
                    <Link
                      to="/clientportal/$clientId/tasks"
                      params={{ clientId }}
                      className="text-primary underline underline-offset-2"
                    >
                      Open your to-dos
                    </Link>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
