import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Button,
  type DataTableColumn,
  EmptyState,
  Field,
  Input,
  ListScreen,
  listPageParams,
  PageHeader,
  toast,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Megaphone, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';
import { BroadcastStatusBadge } from './broadcast-badges';
import { BroadcastDrawer } from './broadcast-drawer';
import { NewBroadcastDialog } from './new-broadcast-dialog';

const route = getRouteApi('/_main/admin/broadcasts');

/** /admin/broadcasts: the firm's mailings with their progress, a new one, and the sending pace. */
export function BroadcastsPage() {
  return (
    <RequirePermission permission="broadcasts.view">
      <BroadcastsScreen />
    </RequirePermission>
  );
}

function Pace() {
  const canSend = useCan('broadcasts.send');
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.broadcasts.settings.queryOptions());
  const [rate, setRate] = useState('');
  const [cap, setCap] = useState('');
  useEffect(() => {
    if (settings.data) {
      setRate(String(settings.data.ratePerSecond));
      setCap(String(settings.data.dailyCap));
    }
  }, [settings.data]);
  const save = useMutation(
    trpc.broadcasts.updateSettings.mutationOptions({
      onSuccess: async () => {
        toast.success('Sending pace saved');
        await queryClient.invalidateQueries({ queryKey: trpc.broadcasts.settings.queryKey() });
      },
    }),
  );
  if (!canSend) return null;
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ ratePerSecond: Number(rate), dailyCap: Number(cap) });
      }}
    >
      <Field label="Messages a second">
        <Input
          type="number"
          min={1}
          max={100}
          className="w-32"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
        />
      </Field>
      <Field label="At most a day">
        <Input type="number" min={1} className="w-36" value={cap} onChange={(e) => setCap(e.target.value)} />
      </Field>
      <Button type="submit" variant="outline" loading={save.isPending}>
        Save pace
      </Button>
    </form>
  );
}

function BroadcastsScreen() {
  const fmt = useFormat();
  const canCreate = useCan('broadcasts.create');
  const url = useListUrl(route.useSearch());
  const query = listPageParams(url.search);
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useQuery({
    ...trpc.broadcasts.list.queryOptions(query),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
  type TRow = NonNullable<typeof list.data>['rows'][number];
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Broadcast',
      truncate: true,
      minWidth: 14,
      cell: (b) => <span className="font-medium">{b.name}</span>,
    },
    { id: 'status', header: 'Status', cell: (b) => <BroadcastStatusBadge status={b.status} /> },
    {
      id: 'progress',
      header: 'Progress',
      className: 'whitespace-nowrap tabular-nums',
      cell: (b) => {
        const sent = b.counts.sent ?? 0;
        const failed = (b.counts.failed ?? 0) + (b.counts.bounced ?? 0);
        if (b.queueing) return <span>Queueing… {fmt.number(b.recipients)} so far</span>;
        return (
          <span>
            {fmt.number(sent)} / {fmt.number(b.recipients)} sent
            {failed ? <span className="text-red-600"> · {fmt.number(failed)} failed</span> : null}
          </span>
        );
      },
    },
    { id: 'when', header: 'Send at', className: 'whitespace-nowrap', cell: (b) => fmt.dateTime(b.sendAt) },
    {
      id: 'by',
      header: 'By',
      truncate: true,
      className: 'hidden lg:table-cell',
      cell: (b) => b.createdBy ?? '-',
    },
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Broadcasts"
        description="Mail the firm's clients in bulk, personal to each, with every delivery accounted for."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Broadcasts' }]}
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden />
              New broadcast
            </Button>
          ) : null
        }
      />
      <Pace />
      <NewBroadcastDialog open={creating} onOpenChange={setCreating} onCreated={setOpenId} />
      <BroadcastDrawer id={openId} onClose={() => setOpenId(null)} />
      <ListScreen
        label="Broadcasts"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(b) => b.id}
        onRowClick={(b) => setOpenId(b.id)}
        empty={
          <EmptyState
            icon={Megaphone}
            title="No broadcasts yet"
            message="Tell clients about a deadline, a change in the law, or the documents you need."
            action={canCreate ? <Button onClick={() => setCreating(true)}>New broadcast</Button> : undefined}
          />
        }
      />
    </div>
  );
}
