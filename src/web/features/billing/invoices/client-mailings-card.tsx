import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, Card, CardContent, CardHeader, CardTitle, Skeleton, useFormat } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../../lib/trpc';

const PAGE = 10;
const STATE = {
  queued: { label: 'Queued', tone: 'grey' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
} as const;

/** The client's delivery history of invoices: every mailing, newest first, with how it went. */
export function ClientMailingsCard({ clientId }: { clientId: string }) {
  const format = useFormat();
  const [page, setPage] = useState(1);
  const list = useQuery(
    trpc.billing.invoices.clientMailings.queryOptions({ clientId, page, pageSize: PAGE }),
  );
  const total = list.data?.total ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invoices mailed</CardTitle>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <Skeleton className="h-16" />
        ) : !list.data?.rows.length ? (
          <p className="text-sm text-muted-fg">No invoices mailed to this client yet.</p>
        ) : (
          <ul aria-label="Invoices mailed" className="flex flex-col divide-y divide-border text-sm">
            {list.data.rows.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                <Link
                  to="/billing/invoices/$id"
                  params={{ id: r.invoiceId }}
                  className="font-mono text-primary underline"
                >
                  {r.number}
                </Link>
                <span className="min-w-0 flex-1 break-all text-muted-fg">{r.email}</span>
                <span className="whitespace-nowrap text-muted-fg">
                  {format.dateTime(r.sentAt ?? r.createdAt)}
                </span>
                <Badge tone={STATE[r.status].tone} dot>
                  {STATE[r.status].label}
                </Badge>
              </li>
            ))}
          </ul>
        )}
        {total > PAGE ? (
          <div className="mt-2 flex items-center justify-end gap-2 text-sm">
            <button
              type="button"
              className="underline disabled:opacity-50"
              disabled={page === 1}
              onClick={() => setPage(page - 1)}
            >
              Newer
            </button>
            <button
              type="button"
              className="underline disabled:opacity-50"
              disabled={page * PAGE >= total}
              onClick={() => setPage(page + 1)}
            >
              Older
            </button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
