import { dashboardLinks } from '@domain/dashboard';
import { greeting } from '@domain/greeting';
import { Card, CardContent, Skeleton, useFormat } from '@web/ui';
import { WaitingOnClientsCard } from '../requests/flow/waiting-on-clients-card';
import { useProfile } from '../shell/use-profile';
import { CountTiles } from './count-tiles';
import { DueWhileAway } from './due-while-away';
import { RecentActivity } from './recent-activity';
import { SetupChecklist } from './setup-checklist';
import { useDashboard } from './use-dashboard';
import { MyWeek, UpcomingDeadlines } from './work-lists';

/** The home dashboard: what is due, what is late, what is coming, what just happened. */
export function HomePage() {
  const profile = useProfile();
  // Today on the firm's calendar.
  const today = useFormat().date(new Date(), 'long');
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-6">
      <header>
        <p className="text-sm text-muted-fg">{today}</p>
        {/* The viewer's own clock decides the greeting (SPEC.md §5); the firm's decides "today". */}
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">
          {greeting()}, {profile.firstName || profile.fullName}
        </h1>
        <p className="mt-1 text-muted-fg">{profile.org.name}</p>
      </header>
      <SetupChecklist />
      <Dashboard />
    </div>
  );
}

function Dashboard() {
  const { data, isPending, isError } = useDashboard();
  if (isPending) return <DashboardSkeleton />;
  if (isError || !data) {
    return (
      <p className="text-sm text-muted-fg">
        The dashboard could not be loaded. Reload the page to try again.
      </p>
    );
  }
  const links = dashboardLinks(data);
  return (
    <>
      <CountTiles data={data} />
      {/* minmax(0, 1fr) columns: a long title wraps inside its card rather than widening the page. */}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <DueWhileAway />
        <MyWeek data={data} links={{ today: links.myDueToday, week: links.myDueLaterThisWeek }} />
        <UpcomingDeadlines data={data} allHref={links.upcoming} />
        <WaitingOnClientsCard />
        <RecentActivity activity={data.activity} />
      </div>
    </>
  );
}

function DashboardSkeleton() {
  return (
    <section aria-busy="true" aria-label="Loading the dashboard" className="flex flex-col gap-6">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {['a', 'b', 'c', 'd', 'e'].map((k) => (
          <Skeleton key={k} className="h-24" />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {['a', 'b', 'c', 'd'].map((k) => (
          <Card key={k}>
            <CardContent className="flex flex-col gap-3 pt-4">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-10" />
              <Skeleton className="h-10" />
              <Skeleton className="h-10" />
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
