import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  PageHeader,
  Skeleton,
  useFormat,
} from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';

/** /reports: one card per report with its headline figure, over the clients the member sees. */
export function ReportsIndexPage() {
  if (!useCan('reports.view')) return <NoAccess message="Your role does not include reports." />;
  return <ReportsIndex />;
}

function ReportsIndex() {
  const format = useFormat();
  const h = useQuery(trpc.reports.headlines.queryOptions());
  const seesBilling = useCan('billing.view');
  // The billing card's figure: what clients owe today (the period does not change it).
  const billing = useQuery({
    ...trpc.reports.billingSummary.queryOptions({
      from: h.data?.monthStart ?? '',
      to: h.data?.today ?? '',
      by: 'month',
      pageSize: 1,
    }),
    enabled: seesBilling && !!h.data,
  });
  const seesRequests = useCan('requests.view');
  const outstanding = useQuery({
    ...trpc.reports.requestsOutstanding.queryOptions({ pageSize: 1 }),
    enabled: seesRequests,
  });
  const seesClients = useCan('clients.view');
  const gapCount = useQuery({ ...trpc.statutory.gaps.queryOptions({ pageSize: 1 }), enabled: seesClients });
  const n = (v: number | undefined) => (v === undefined ? '' : format.number(v));
  const cards = [
    {
      title: 'Compliance grid',
      description: 'Each client’s return for each period of a service: filed, due, overdue or not started.',
      figure: n(h.data?.projectsOverdue),
      unit: 'projects overdue',
      link: { to: '/reports/services/summary', search: { view: 'grid' } } as const,
    },
    {
      title: 'Client summary',
      description: 'Per client: work by status, overdue, on time, client to-dos, hours and budget.',
      figure: n(h.data?.clientsBehind),
      unit: 'clients with overdue tasks',
      link: { to: '/reports/client/summary', search: {} } as const,
    },
    {
      title: 'Services summary',
      description: 'Per service: expected projects against those made, completed, late and never started.',
      figure: h.data ? `${n(h.data.projectsDone)} of ${n(h.data.projectsDue)}` : '',
      unit: 'projects due this month done',
      link: { to: '/reports/services/summary', search: {} } as const,
    },
    {
      title: 'Team summary',
      description: 'Per member: open work against capacity, completions, hours, utilisation, the load ahead.',
      figure: h.data ? format.number(h.data.minutes / 60, { maximumFractionDigits: 0 }) : '',
      unit: 'hours logged this month',
      link: { to: '/reports/team/summary', search: {} } as const,
    },
    ...(seesClients
      ? [
          {
            title: 'Statutory gaps',
            description:
              'Clients whose registrations say they must file a return (GST, TDS, ITR, ROC) with no engagement for it; engage them in bulk.',
            figure: n(gapCount.data?.total),
            unit: 'filings without an engagement',
            link: { to: '/reports/statutory/gaps', search: {} } as const,
          },
        ]
      : []),
    ...(seesBilling
      ? [
          {
            title: 'Billing summary',
            description:
              'Billed, collected, outstanding and overdue, work not yet billed and realization, by month, client, service, partner, member or project.',
            figure: billing.data ? format.moneyMinor(billing.data.totals.outstanding) : '',
            unit: 'outstanding today',
            link: { to: '/reports/billing/summary', search: {} } as const,
          },
        ]
      : []),
    ...(seesRequests
      ? [
          {
            title: 'Requests outstanding',
            description:
              'Client requests not yet complete, by client, by age since sent and by who sent them.',
            figure: n(outstanding.data?.totals.waiting),
            unit: 'waiting on clients',
            link: { to: '/reports/requests/outstanding', search: {} } as const,
          },
        ]
      : []),
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reports' }]}
        title="Reports"
        description="How the firm's work stands, at a glance"
      />
      <ul className="grid gap-4 sm:grid-cols-2">
        {cards.map((c) => (
          <li key={c.title}>
            <Card className="relative h-full hover:border-primary">
              <CardHeader>
                <CardTitle>
                  <Link
                    {...c.link}
                    className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {c.title}
                  </Link>
                </CardTitle>
              </CardHeader>
              <CardContent className="flex flex-col gap-2">
                {h.isPending ||
                (c.title === 'Billing summary' && billing.isPending) ||
                (c.title === 'Requests outstanding' && outstanding.isPending) ||
                (c.title === 'Statutory gaps' && gapCount.isPending) ? (
                  <Skeleton className="h-8 w-24" />
                ) : (
                  <p>
                    <span className="text-2xl font-semibold tabular-nums text-fg">{c.figure}</span>{' '}
                    <span className="text-sm text-muted-fg">{c.unit}</span>
                  </p>
                )}
                <CardDescription>{c.description}</CardDescription>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
