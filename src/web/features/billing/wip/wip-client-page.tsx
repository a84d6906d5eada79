import { TIME_GROUPING_LABELS, TIME_GROUPINGS, type TTimeGrouping } from '@domain/billing/wip';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import {
  ActionMenu,
  Button,
  Card,
  confirm,
  EmptyState,
  PageHeader,
  Select,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { FileText, Hourglass, Plus, SearchX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { RequirePermission, useCan } from '../../shell/access';
import { DisbursementDialog } from './disbursement-dialog';
import { expandWip, type TClientWip, type TWipDisbursement } from './use-wip';
import {
  CoveredSection,
  DisbursementsSection,
  disbursementKey,
  FeesSection,
  feeKey,
  TimeSection,
  timeKey,
} from './wip-sections';

const route = getRouteApi('/_main/billing/wip/$clientId');

/** /billing/wip/{clientId}: a client's unbilled work, item by item, to choose from for an invoice. */
export function WipClientPage() {
  return (
    <RequirePermission permission="billing.view">
      <WipClient />
    </RequirePermission>
  );
}

/** Every item's key with its value: what the selection adds up. */
function itemsOf(wip: TClientWip | undefined) {
  const items = new Map<string, number>();
  for (const f of wip?.fees ?? []) items.set(feeKey(f), f.fee);
  for (const t of wip?.time ?? []) items.set(timeKey(t), t.value);
  for (const d of wip?.disbursements ?? []) items.set(disbursementKey(d), d.amount);
  return items;
}

function WipClient() {
  const { clientId } = route.useParams();
  const format = useFormat();
  const router = useRouter();
  const queryClient = useQueryClient();
  const canManage = useCan('billing.manage');
  const wip = useQuery({
    ...trpc.billing.wip.client.queryOptions({ clientId }),
    select: expandWip,
    retry: false,
  });
  const items = useMemo(() => itemsOf(wip.data), [wip.data]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const seen = useRef<Set<string> | null>(null);
  // Everything is chosen at first, and so is what arrives later; what left WIP leaves the choice.
  useEffect(() => {
    if (!wip.data) return;
    const before = seen.current;
    setSelected((current) => {
      const next = new Set<string>();
      for (const key of items.keys()) if (!before?.has(key) || current.has(key)) next.add(key);
      return next;
    });
    seen.current = new Set(items.keys());
  }, [wip.data, items]);
  const [groupBy, setGroupBy] = useState<TTimeGrouping>('service');
  const [editing, setEditing] = useState<TWipDisbursement | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
  const openInvoice = async (invoiceId: string) => {
    await refresh();
    // The invoice's own page (billing's invoices part).
    router.history.push(`/billing/invoices/${invoiceId}`);
  };
  const create = useMutation(
    trpc.billing.wip.createInvoice.mutationOptions({
      onSuccess: async ({ invoiceId }) => {
        toast.success('Draft invoice made');
        await openInvoice(invoiceId);
      },
      onError: () => void refresh(),
    }),
  );
  const append = useMutation(
    trpc.billing.wip.addToDraft.mutationOptions({
      onSuccess: async ({ invoiceId }) => {
        toast.success('Added to the draft invoice');
        await openInvoice(invoiceId);
      },
      onError: () => void refresh(),
    }),
  );
  const remove = useMutation(
    trpc.billing.wip.disbursements.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Disbursement deleted');
        await refresh();
      },
    }),
  );

  if (wip.error?.data?.code === 'NOT_FOUND') {
    return (
      <div className="mx-auto max-w-6xl p-4 sm:p-6">
        <EmptyState
          icon={SearchX}
          title="Client not found"
          message="It may have been removed, or the link is wrong."
        />
      </div>
    );
  }
  const data = wip.data;
  const toggle = (keys: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const key of keys) {
        if (on) next.add(key);
        else next.delete(key);
      }
      return next;
    });
  const selection = canManage ? { selected, toggle } : null;
  const chosen = [...selected].filter((k) => items.has(k));
  const chosenValue = chosen.reduce((s, k) => s + (items.get(k) ?? 0), 0);
  const selectionInput = () => ({
    timeEntryIds: chosen.filter((k) => k.startsWith('t:')).map((k) => k.slice(2)),
    disbursementIds: chosen.filter((k) => k.startsWith('d:')).map((k) => k.slice(2)),
    fees: chosen
      .filter((k) => k.startsWith('f:'))
      .map((k) => {
        const [engagementId = '', periodStart = ''] = k.slice(2).split('|');
        return { engagementId, periodStart };
      }),
    groupTimeBy: groupBy,
  });
  const busy = create.isPending || append.isPending;
  const editDisbursement = (d: TWipDisbursement | null) => {
    setEditing(d);
    setDialogOpen(true);
  };
  const recordButton = canManage ? (
    <Button variant="outline" size="sm" onClick={() => editDisbursement(null)}>
      <Plus aria-hidden /> Record disbursement
    </Button>
  ) : null;
  const nothing =
    data && !data.time.length && !data.fees.length && !data.disbursements.length && !data.covered.length;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        title={data?.client.name ?? 'Work in progress'}
        description={data ? `${data.client.code} · work in progress not on an invoice yet` : undefined}
        trail={[{ label: 'Work in progress', to: '/billing/wip' }, { label: data?.client.name ?? 'Client' }]}
        actions={
          data ? (
            <Button asChild variant="outline">
              <Link to="/clients/$id" params={{ id: data.client.id }}>
                Open the client
              </Link>
            </Button>
          ) : null
        }
      />
      <DisbursementDialog
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        clientId={clientId}
        projects={data?.projects ?? []}
        disbursement={editing}
      />
      {!data ? (
        <div className="flex flex-col gap-3" aria-busy="true">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : nothing ? (
        <EmptyState
          icon={Hourglass}
          title="Nothing to bill"
          message="This client has no approved billable time, fee due or disbursement that is not on an invoice."
          action={recordButton ?? undefined}
        />
      ) : (
        <>
          {data.more ? (
            <p role="status" className="rounded-md border border-border bg-muted/50 px-3 py-2 text-sm">
              Showing the oldest 2,000 time entries: bill these, and the rest follow.
            </p>
          ) : null}
          <FeesSection fees={data.fees} selection={selection} />
          <TimeSection
            time={data.time}
            by={groupBy === 'project' ? 'project' : 'service'}
            selection={selection}
          />
          <CoveredSection covered={data.covered} fees={data.fees} />
          <DisbursementsSection
            disbursements={data.disbursements}
            selection={selection}
            action={recordButton}
            onEdit={editDisbursement}
            onDelete={async (d) => {
              if (
                await confirm({
                  title: 'Delete this disbursement?',
                  message: `${d.description}, ${format.moneyMinor(d.amount)}. Its receipt stays in the client's documents.`,
                  confirmLabel: 'Delete',
                  danger: true,
                })
              )
                remove.mutate({ disbursementId: d.id });
            }}
          />
          {canManage ? (
            <Card className="sticky bottom-2 z-10 flex flex-wrap items-center gap-3 px-4 py-3 shadow-md">
              <p className="text-sm" aria-live="polite">
                <span className="font-medium tabular-nums">{format.moneyMinor(chosenValue)}</span>{' '}
                <span className="text-muted-fg">
                  chosen, {chosen.length} item{chosen.length === 1 ? '' : 's'}
                </span>
              </p>
              <div className="ml-auto flex flex-wrap items-center gap-2">
                <Select
                  aria-label="Time on the invoice"
                  className="w-48"
                  value={groupBy}
                  onValueChange={(v) => setGroupBy(v as TTimeGrouping)}
                  options={TIME_GROUPINGS.map((g) => ({ value: g, label: TIME_GROUPING_LABELS[g] }))}
                />
                {data.drafts.length ? (
                  <ActionMenu
                    label="Add to a draft"
                    disabled={!chosen.length || busy}
                    items={data.drafts.map((d) => ({
                      key: d.id,
                      label: `Draft of ${format.date(d.createdAt)}, ${d.lines} line${d.lines === 1 ? '' : 's'}, ${format.moneyMinor(d.total)}`,
                      action: d.id,
                    }))}
                    onPick={(invoiceId) => append.mutate({ invoiceId, ...selectionInput() })}
                  />
                ) : null}
                <Button
                  disabled={!chosen.length}
                  loading={create.isPending}
                  onClick={() => create.mutate({ clientId, ...selectionInput() })}
                >
                  <FileText aria-hidden /> Make draft invoice
                </Button>
              </div>
            </Card>
          ) : null}
        </>
      )}
    </div>
  );
}
