import { DELIVERY_STATE_LABELS, DELIVERY_STATES, type TDeliveryState } from '@domain/broadcasts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  CellText,
  confirm,
  DataTable,
  type DataTableColumn,
  Drawer,
  DrawerContent,
  Select,
  Spinner,
  toast,
  useFormat,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { BroadcastStatusBadge, DeliveryStateBadge } from './broadcast-badges';

const ALL = 'all';

/** One broadcast: its progress, every delivery with its state and answer, and what can be done now. */
export function BroadcastDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const fmt = useFormat();
  const canSend = useCan('broadcasts.send');
  const queryClient = useQueryClient();
  const [state, setState] = useState<string>(ALL);
  const [page, setPage] = useState(1);
  const detail = useQuery({
    ...trpc.broadcasts.get.queryOptions({ id: id ?? '' }),
    enabled: !!id,
    refetchInterval: 2000,
  });
  const deliveries = useQuery({
    ...trpc.broadcasts.deliveries.queryOptions({
      id: id ?? '',
      page,
      pageSize: 50,
      state: state === ALL ? null : (state as TDeliveryState),
    }),
    enabled: !!id,
    placeholderData: keepPreviousData,
    refetchInterval: 2000,
  });
  const done = (message: string) => async () => {
    toast.success(message);
    await queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
  };
  const pause = useMutation(trpc.broadcasts.pause.mutationOptions({ onSuccess: done('Paused') }));
  const resume = useMutation(trpc.broadcasts.resume.mutationOptions({ onSuccess: done('Resumed') }));
  const cancel = useMutation(trpc.broadcasts.cancel.mutationOptions({ onSuccess: done('Cancelled') }));
  const retry = useMutation(
    trpc.broadcasts.retryFailed.mutationOptions({
      onSuccess: async (r) => done(`Retrying ${fmt.number(r.retried)} failed`)(),
    }),
  );
  const b = detail.data;
  const failed = (b?.counts.failed ?? 0) + (b?.counts.bounced ?? 0);
  type TRow = NonNullable<typeof deliveries.data>['rows'][number];
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'to',
      header: 'Recipient',
      // The drawer is 42 rem wide: each column gives way (clipped lines, a wrapped date) so that
      // all four fit at 1280 px, the server's answer included.
      minWidth: 10,
      cell: (d) => (
        <span className="flex flex-col">
          <CellText className="font-medium">{d.email}</CellText>
          {d.clientName ? <CellText className="text-xs text-muted-fg">{d.clientName}</CellText> : null}
        </span>
      ),
    },
    { id: 'state', header: 'State', cell: (d) => <DeliveryStateBadge state={d.state} /> },
    {
      id: 'sent',
      header: 'Sent',
      className: 'whitespace-normal',
      minWidth: 6,
      cell: (d) => (d.sentAt ? fmt.dateTime(d.sentAt) : '-'),
    },
    {
      id: 'answer',
      header: "Server's answer",
      truncate: true,
      lines: 2,
      cell: (d) => <span className="text-muted-fg">{d.error ?? '-'}</span>,
    },
  ];
  return (
    <Drawer open={!!id} onOpenChange={(o) => !o && onClose()}>
      <DrawerContent
        size="lg"
        title={b?.name || 'Broadcast'}
        description={b ? <BroadcastStatusBadge status={b.status} /> : null}
      >
        {!b ? (
          <Spinner />
        ) : (
          <div className="flex flex-col gap-4">
            <dl className="grid grid-cols-3 gap-2 text-sm sm:grid-cols-5">
              {(['sent', 'queued', 'failed', 'bounced', 'unsubscribed'] as const).map((k) => (
                <div key={k}>
                  <dt className="text-muted-fg">{DELIVERY_STATE_LABELS[k]}</dt>
                  <dd className="font-medium tabular-nums" data-testid={`count-${k}`}>
                    {fmt.number(b.counts[k] ?? 0)}
                  </dd>
                </div>
              ))}
            </dl>
            {b.pauseReason ? <p className="text-sm text-amber-700">{b.pauseReason}</p> : null}
            {canSend ? (
              <div className="flex flex-wrap gap-2">
                {b.status === 'sending' || b.status === 'scheduled' ? (
                  <Button
                    variant="outline"
                    loading={pause.isPending}
                    onClick={() => pause.mutate({ id: b.id })}
                  >
                    Pause
                  </Button>
                ) : null}
                {b.status === 'paused' ? (
                  <Button
                    variant="outline"
                    loading={resume.isPending}
                    onClick={() => resume.mutate({ id: b.id })}
                  >
                    Resume
                  </Button>
                ) : null}
                {failed > 0 && b.status !== 'cancelled' ? (
                  <Button
                    variant="outline"
                    loading={retry.isPending}
                    onClick={() => retry.mutate({ id: b.id })}
                  >
                    Retry the failed ones
                  </Button>
                ) : null}
                {b.status !== 'completed' && b.status !== 'cancelled' ? (
                  <Button
                    variant="outline"
                    loading={cancel.isPending}
                    onClick={async () => {
                      if (
                        await confirm({
                          title: 'Cancel this broadcast?',
                          message: 'Recipients not yet sent to will not get it.',
                          danger: true,
                          confirmLabel: 'Cancel broadcast',
                          cancelLabel: 'Keep it',
                        })
                      ) {
                        cancel.mutate({ id: b.id });
                      }
                    }}
                  >
                    Cancel
                  </Button>
                ) : null}
              </div>
            ) : null}
            <DataTable
              label="Deliveries"
              columns={columns}
              rows={deliveries.data?.rows ?? []}
              getRowId={(d) => d.id}
              total={deliveries.data?.total ?? 0}
              page={page}
              pageSize={50}
              loading={deliveries.isPending}
              onPageChange={setPage}
              toolbar={
                <Select
                  aria-label="Filter by state"
                  className="w-44"
                  value={state}
                  onValueChange={(v) => {
                    setState(v);
                    setPage(1);
                  }}
                  options={[
                    { value: ALL, label: 'Every state' },
                    ...DELIVERY_STATES.map((s) => ({ value: s, label: DELIVERY_STATE_LABELS[s] })),
                  ]}
                />
              }
            />
          </div>
        )}
      </DrawerContent>
    </Drawer>
  );
}
