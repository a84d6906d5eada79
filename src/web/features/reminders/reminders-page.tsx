import {
  RECURRENCE_LABELS,
  REMINDER_STATUS_LABELS,
  REMINDER_STATUSES,
  REMINDER_TYPE_LABELS,
  REMINDER_TYPES,
  type TReminderType,
} from '@domain/reminders';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Badge,
  Button,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  PageHeader,
  TabNav,
  tabClasses,
  useFormat,
  useListUrl,
} from '@web/ui';
import { BellRing, Plus } from 'lucide-react';
import { useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { STATUS_TONES } from './format';
import { ReminderDrawer } from './reminder-drawer';
import { ReminderFormDialog } from './reminder-form-dialog';
import { remindersListInput } from './reminders-search';

const route = getRouteApi('/_main/reminders/$type');

export type TReminderRow = inferRouterOutputs<AppRouter>['reminders']['list']['rows'][number];

const sendingSoon = (rows: { status: string; remindAt: Date }[] | undefined) =>
  !!rows?.some((r) => r.status === 'scheduled' && r.remindAt.getTime() <= Date.now() + 60_000);

export function RemindersPage() {
  const canView = useCan('reminders.view');
  const canCreate = useCan('reminders.create');
  const { type } = route.useParams() as { type: TReminderType };
  const [creating, setCreating] = useState(false);
  if (!canView)
    return (
      <NoAccess message="Your role does not include the firm's reminders. Ask the firm owner if you need them." />
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reminders' }]}
        title="Reminders"
        description={REMINDER_TYPE_LABELS[type].description}
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden />
              New reminder
            </Button>
          ) : null
        }
      />
      <TabNav label="Reminder types">
        {REMINDER_TYPES.map((t) => (
          <Link key={t} to="/reminders/$type" params={{ type: t }} className={tabClasses}>
            {REMINDER_TYPE_LABELS[t].label}
          </Link>
        ))}
      </TabNav>
      <ReminderFormDialog open={creating} onOpenChange={setCreating} type={type} reminder={null} />
      <RemindersTable type={type} onCreate={canCreate ? () => setCreating(true) : undefined} />
    </div>
  );
}

function RemindersTable({ type, onCreate }: { type: TReminderType; onCreate?: () => void }) {
  const url = useListUrl(route.useSearch());
  const format = useFormat();
  const query = remindersListInput(type, url.search);
  const list = useQuery({
    ...trpc.reminders.list.queryOptions(query),
    placeholderData: keepPreviousData,
    // While a send is due, the list follows the queue until it shows the outcome.
    refetchInterval: (query) => (sendingSoon(query.state.data?.rows) ? 3000 : false),
  });

  const columns: DataTableColumn<TReminderRow>[] = [
    {
      id: 'title',
      header: 'Reminder',
      sortable: true,
      className: 'whitespace-normal',
      cell: (r) => (
        <span className="flex flex-col">
          <span className="font-medium text-fg">{r.title}</span>
          {r.itemName ? (
            <span className="text-xs text-muted-fg">
              {r.itemName}
              {r.expiryDate ? ` · expires ${format.date(r.expiryDate)}` : ''}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (r) => (
        <Badge tone={STATUS_TONES[r.status]} dot title={r.lastError ?? undefined}>
          {REMINDER_STATUS_LABELS[r.status]}
        </Badge>
      ),
    },
    {
      id: 'remindAt',
      header: 'Next send',
      sortable: true,
      cell: (r) =>
        r.status === 'scheduled' ? (
          <time dateTime={r.remindAt.toISOString()}>{format.dateTime(r.remindAt)}</time>
        ) : (
          <span className="text-muted-fg">—</span>
        ),
    },
    { id: 'recurrence', header: 'Repeats', cell: (r) => RECURRENCE_LABELS[r.recurrence] },
    {
      id: 'linked',
      header: 'Linked to',
      className: 'whitespace-normal',
      cell: (r) =>
        r.client || r.project || r.task ? (
          <span className="flex flex-col text-sm">
            {r.client ? (
              <Link to="/clients/$id" params={{ id: r.client.id }} className="text-primary hover:underline">
                {r.client.name}
              </Link>
            ) : null}
            {r.project ? <span className="text-xs text-muted-fg">Project: {r.project.name}</span> : null}
            {r.task ? <span className="text-xs text-muted-fg">Task: {r.task.title}</span> : null}
          </span>
        ) : (
          <span className="text-muted-fg">—</span>
        ),
    },
    {
      id: 'lastDelivery',
      header: 'Last delivery',
      cell: (r) =>
        r.lastDelivery ? (
          <span className="flex items-center gap-1.5">
            <Badge tone={r.lastDelivery.status === 'sent' ? 'green' : 'red'}>
              {r.lastDelivery.status === 'sent' ? 'Delivered' : 'Refused'}
            </Badge>
            <time className="text-xs text-muted-fg" dateTime={r.lastDelivery.at.toISOString()}>
              {format.dateTime(r.lastDelivery.at)}
            </time>
          </span>
        ) : (
          <span className="text-muted-fg">Not sent yet</span>
        ),
    },
  ];
  return (
    <>
      <ListScreen
        label={`${REMINDER_TYPE_LABELS[type].label} reminders`}
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(r) => r.id}
        getRowLabel={(r) => r.title}
        pageSizes={false}
        rowLink={(r) => ({ to: '.', search: (prev) => ({ ...prev, open: r.id }), replace: true })}
        searchBox={{ label: 'Search reminders', placeholder: 'Search title or item…' }}
        filters={[
          {
            key: 'status',
            label: 'Status',
            all: 'All statuses',
            options: REMINDER_STATUSES.map((s) => ({ value: s, label: REMINDER_STATUS_LABELS[s] })),
          },
        ]}
        noMatch={{
          title: 'No reminders match',
          message: 'Try other words, or clear the filters.',
          clear: true,
        }}
        empty={
          <EmptyState
            icon={BellRing}
            title={`No ${REMINDER_TYPE_LABELS[type].label.toLowerCase()} reminders yet`}
            message={REMINDER_TYPE_LABELS[type].description}
            action={
              onCreate ? (
                <Button onClick={onCreate}>
                  <Plus aria-hidden />
                  New reminder
                </Button>
              ) : undefined
            }
          />
        }
      />
      <ReminderDrawer id={url.search.open ?? null} onClose={() => url.setSearch({ open: undefined })} />
    </>
  );
}
