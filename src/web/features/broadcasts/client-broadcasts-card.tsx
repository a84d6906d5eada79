import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader, CardTitle, Skeleton, useFormat } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { DeliveryStateBadge } from './broadcast-badges';

const PAGE = 10;

/** A client's page: the broadcasts it received, newest first, each with its delivery's state. */
export function ClientBroadcastsCard({ clientId }: { clientId: string }) {
  const canView = useCan('broadcasts.view');
  const fmt = useFormat();
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.broadcasts.forClient.queryOptions({ clientId, page, pageSize: PAGE }),
    enabled: canView,
  });
  if (!canView) return null;
  const total = list.data?.total ?? 0;
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Broadcasts received</CardTitle>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <Skeleton className="h-16" />
        ) : !list.data?.rows.length ? (
          <p className="text-sm text-muted-fg">No broadcasts sent to this client yet.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border text-sm" aria-label="Broadcasts received">
            {list.data.rows.map((r) => (
              <li key={r.deliveryId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                <span className="min-w-0 flex-1 basis-40 truncate font-medium">{r.name}</span>
                <span className="min-w-0 break-all text-muted-fg">{r.email}</span>
                <span className="whitespace-nowrap text-muted-fg">{fmt.dateTime(r.sentAt ?? r.sendAt)}</span>
                <DeliveryStateBadge state={r.state} />
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
