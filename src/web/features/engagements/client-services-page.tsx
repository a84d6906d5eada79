import { todayIn } from '@domain/days';
import { FREQUENCY_LABELS } from '@domain/services';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Badge,
  Button,
  confirm,
  type DataTableColumn,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  EmptyState,
  IconButton,
  ListScreen,
  listPageParams,
  toast,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Briefcase, CalendarX, Ellipsis, Pencil, Plus, SearchX, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import type { TEngagementRow } from '../services/use-services';
import { NoAccess, useCan } from '../shell/access';
import { EngagementDialog } from './engagement-dialog';

const route = getRouteApi('/_main/clients/$id/services');

const TRIGGER_SHORT: Record<TEngagementRow['feeTrigger'], string> = {
  period_start: 'as each period starts',
  project_complete: 'when its project completes',
  manual: 'by hand',
};

/** The fee arrangement in a few words: "Fixed fee, as each period starts (from 1 Dec 2026)". */
function Arrangement({ engagement: e }: { engagement: TEngagementRow }) {
  const format = useFormat();
  if (e.billingMode === 'none') return <span className="text-muted-fg">Not billed</span>;
  if (e.billingMode === 'hourly') return <span>Hourly</span>;
  // Wraps to its own narrow column: on one line the longest arrangement pushed the row's actions
  // off a 1280 px screen.
  return (
    <div className="max-w-48 whitespace-normal">
      <p>Fixed fee, {TRIGGER_SHORT[e.feeTrigger]}</p>
      {e.billFrom && e.billFrom > e.startDate ? (
        <p className="text-xs text-muted-fg">Billed from {format.date(e.billFrom)}</p>
      ) : null}
    </div>
  );
}

/** /clients/{id}/services: the client's engagements — which services, fee, frequency, dates, assignees. */
export function ClientServicesPage() {
  const canView = useCan('clients.view');
  if (!canView) return <NoAccess />;
  return <ClientServices />;
}

function ClientServices() {
  const { id } = route.useParams();
  const url = useListUrl(route.useSearch());
  const queryClient = useQueryClient();
  const canEdit = useCan('clients.edit');
  const canSeeServices = useCan('services.view');
  const format = useFormat();
  // The firm's today decides whether an engagement has ended, whatever the browser's clock says.
  const todayIso = () => todayIn(format.timeZone);
  const query = { clientId: id, ...listPageParams(url.search) };
  const list = useQuery({
    ...trpc.engagements.listForClient.queryOptions(query),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const [editing, setEditing] = useState<TEngagementRow | null>(null);
  const [open, setOpen] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.engagements.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.services.pathKey() });
  };
  const end = useMutation(
    trpc.engagements.end.mutationOptions({
      onSuccess: async () => {
        toast.success('Engagement ended');
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.engagements.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Engagement deleted');
        await refresh();
      },
    }),
  );
  const startEdit = (e: TEngagementRow | null) => {
    setEditing(e);
    setOpen(true);
  };
  if (list.error?.data?.code === 'NOT_FOUND') {
    return (
      <EmptyState
        icon={SearchX}
        title="Client not found"
        message="It may have been removed, or the link is wrong."
      />
    );
  }
  const canAdd = canEdit && canSeeServices;

  const columns: DataTableColumn<TEngagementRow>[] = [
    {
      id: 'service',
      header: 'Service',
      cell: (e) => (
        <div>
          <p className="flex items-center gap-2 font-medium text-fg">
            {e.service.name}
            {e.service.archived ? <Badge tone="grey">Archived</Badge> : null}
          </p>
          <p className="text-xs text-muted-fg">{e.service.code}</p>
        </div>
      ),
    },
    {
      id: 'frequency',
      header: 'Frequency',
      className: 'hidden md:table-cell',
      cell: (e) =>
        FREQUENCY_LABELS[e.service.frequency as keyof typeof FREQUENCY_LABELS] ?? e.service.frequency,
    },
    { id: 'start', header: 'Start', cell: (e) => format.date(e.startDate) },
    {
      id: 'end',
      header: 'End',
      cell: (e) =>
        e.endDate ? (
          e.endDate < todayIso() ? (
            <span className="text-muted-fg">{format.date(e.endDate)} (ended)</span>
          ) : (
            format.date(e.endDate)
          )
        ) : (
          <Badge tone="green">Ongoing</Badge>
        ),
    },
    { id: 'fee', header: 'Fee', className: 'text-right tabular-nums', cell: (e) => format.money(e.fee) },
    {
      id: 'billing',
      header: 'Billed',
      className: 'hidden md:table-cell',
      cell: (e) => <Arrangement engagement={e} />,
    },
    {
      id: 'assignees',
      header: 'Assignees',
      className: 'hidden lg:table-cell',
      cell: (e) => (e.assignees.length ? e.assignees.map((a) => a.name).join(', ') : '-'),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'relative w-12 text-right',
      cell: (e) =>
        canEdit ? (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <IconButton aria-label={`Actions for ${e.service.name}`} size="sm">
                <Ellipsis />
              </IconButton>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => startEdit(e)}>
                <Pencil aria-hidden /> Edit
              </DropdownMenuItem>
              {!e.endDate ? (
                <DropdownMenuItem
                  onSelect={async () => {
                    const date = todayIso() < e.startDate ? e.startDate : todayIso();
                    if (
                      await confirm({
                        title: `End ${e.service.name}?`,
                        message: `The engagement ends on ${format.date(date)}. You can change the date later by editing it.`,
                        confirmLabel: 'End engagement',
                      })
                    ) {
                      end.mutate({ engagementId: e.id, endDate: date });
                    }
                  }}
                >
                  <CalendarX aria-hidden /> End
                </DropdownMenuItem>
              ) : null}
              <DropdownMenuItem
                danger
                onSelect={async () => {
                  if (
                    await confirm({
                      title: `Delete ${e.service.name}?`,
                      message:
                        'The engagement and its assignees are removed. To keep its history, end it instead.',
                      confirmLabel: 'Delete',
                      danger: true,
                    })
                  ) {
                    remove.mutate({ engagementId: e.id });
                  }
                }}
              >
                <Trash2 aria-hidden /> Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null,
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Services</h2>
        {canAdd ? (
          <Button onClick={() => startEdit(null)}>
            <Plus aria-hidden /> Add service
          </Button>
        ) : null}
      </div>
      <EngagementDialog open={open} onOpenChange={setOpen} clientId={id} engagement={editing} />
      <ListScreen
        label="Services of the client"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(e) => e.id}
        empty={
          <EmptyState
            icon={Briefcase}
            title="No services yet"
            message="Add the services this client takes from the firm."
            action={canAdd ? <Button onClick={() => startEdit(null)}>Add service</Button> : undefined}
          />
        }
      />
    </div>
  );
}
