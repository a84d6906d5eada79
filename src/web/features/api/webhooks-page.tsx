import { type TWebhookEvent, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, ZWebhookFields } from '@domain/webhooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  confirm,
  DataTable,
  type DataTableColumn,
  EmptyState,
  Field,
  Input,
  PageHeader,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { Webhook } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';

type TSubscription = inferRouterOutputs<AppRouter>['webhooks']['list'][number];
type TDelivery = inferRouterOutputs<AppRouter>['webhooks']['deliveries']['rows'][number];

/** /admin/settings/webhooks: the firm's webhook subscriptions and their deliveries (settings.edit). */
export function WebhooksPage() {
  if (!useCan('settings.edit'))
    return <NoAccess message="Only the firm's owner and admins manage webhooks." />;
  return <Webhooks />;
}

function Webhooks() {
  const [made, setMade] = useState<string | null>(null);
  return (
    <div className="mx-auto max-w-6xl p-6">
      <PageHeader
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Webhooks' }]}
        title="Webhooks"
        description="Tell another tool the moment something happens in the firm. Each event is POSTed as JSON and signed (Standard Webhooks); failed deliveries are retried for about a day."
      />
      <div className="flex flex-col gap-6">
        <NewWebhookCard onMade={setMade} />
        {made ? (
          <Card className="border-primary/40" role="status">
            <CardHeader>
              <div>
                <CardTitle>Copy the signing secret now</CardTitle>
                <CardDescription>
                  The receiver checks each request with it. It is not shown again.
                </CardDescription>
              </div>
            </CardHeader>
            <CardContent className="flex flex-col gap-3 md:flex-row md:items-center">
              <Input readOnly aria-label="The signing secret" value={made} className="font-mono" />
              <Button type="button" variant="ghost" onClick={() => setMade(null)}>
                Done
              </Button>
            </CardContent>
          </Card>
        ) : null}
        <SubscriptionsCard />
      </div>
    </div>
  );
}

function NewWebhookCard({ onMade }: { onMade: (secret: string) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<TWebhookEvent[]>([]);
  const [errors, setErrors] = useState<Partial<Record<'url' | 'description' | 'events', string>>>({});
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async ({ secret }) => {
        onMade(secret);
        setUrl('');
        setDescription('');
        setEvents([]);
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ZWebhookFields.safeParse({ url, description, events });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof typeof errors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>New webhook</CardTitle>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <div className="grid gap-4 md:grid-cols-2">
            <Field label="Endpoint URL" required error={errors.url}>
              <Input
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="https://hooks.example.com/practice"
              />
            </Field>
            <Field label="Description" error={errors.description}>
              <Input
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                placeholder="Zapier: new clients"
              />
            </Field>
          </div>
          <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
            <legend className="mb-2 text-sm font-medium">Events</legend>
            <div className="grid gap-2 sm:grid-cols-2 md:grid-cols-3">
              {WEBHOOK_EVENTS.map((name) => (
                <Checkbox
                  key={name}
                  label={WEBHOOK_EVENT_LABELS[name]}
                  checked={events.includes(name)}
                  onCheckedChange={(on) =>
                    setEvents((now) => (on ? [...now, name] : now.filter((e) => e !== name)))
                  }
                />
              ))}
            </div>
            {errors.events ? (
              <p id="webhook-events-error" className="mt-1 text-sm text-danger">
                {errors.events}
              </p>
            ) : null}
          </fieldset>
          <div>
            <Button type="submit" disabled={create.isPending}>
              Add webhook
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function SubscriptionsCard() {
  const subscriptions = useQuery(trpc.webhooks.list.queryOptions());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscriptions</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {subscriptions.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : subscriptions.isError ? (
          <p role="alert">The webhooks could not be loaded: {subscriptions.error.message}</p>
        ) : subscriptions.data.length === 0 ? (
          <EmptyState
            icon={Webhook}
            title="No webhooks yet"
            message="Add one above to send events to another tool."
          />
        ) : (
          subscriptions.data.map((sub) => <Subscription key={sub.id} sub={sub} />)
        )}
      </CardContent>
    </Card>
  );
}

function Subscription({ sub }: { sub: TSubscription }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async (_r, input) => {
        toast.success(input.paused ? 'Webhook paused' : 'Webhook resumed');
        await refresh();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const test = useMutation(
    trpc.webhooks.test.mutationOptions({
      onSuccess: async () => {
        toast.success('Test event queued');
        setOpen(true);
        await refresh();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Webhook deleted');
        await refresh();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const paused = Boolean(sub.pausedAt);
  return (
    <section aria-label={`Webhook ${sub.url}`} className="rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm">{sub.url}</p>
          {sub.description ? <p className="text-sm text-muted-fg">{sub.description}</p> : null}
          <p className="mt-1 flex flex-wrap gap-1">
            {paused ? <Badge tone="yellow">Paused</Badge> : <Badge tone="green">Active</Badge>}
            {sub.events.map((e) => (
              <Badge key={e} tone="outline">
                {WEBHOOK_EVENT_LABELS[e as TWebhookEvent] ?? e}
              </Badge>
            ))}
          </p>
          {paused && sub.pausedReason ? (
            <p className="mt-1 text-sm text-muted-fg">{sub.pausedReason}</p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            size="sm"
            variant="secondary"
            onClick={() => test.mutate({ subscriptionId: sub.id })}
          >
            Send test event
          </Button>
          <Button
            type="button"
            size="sm"
            variant="secondary"
            onClick={() =>
              update.mutate({
                subscriptionId: sub.id,
                url: sub.url,
                description: sub.description,
                events: sub.events as TWebhookEvent[],
                paused: !paused,
              })
            }
          >
            {paused ? 'Resume' : 'Pause'}
          </Button>
          <Button
            type="button"
            size="sm"
            variant="secondary"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            type="button"
            size="sm"
            variant="ghost"
            onClick={async () => {
              if (
                await confirm({
                  title: 'Delete this webhook?',
                  message: sub.url,
                  confirmLabel: 'Delete',
                  danger: true,
                })
              )
                remove.mutate({ subscriptionId: sub.id });
            }}
          >
            Delete
          </Button>
        </div>
      </div>
      {open ? <Deliveries subscriptionId={sub.id} /> : null}
    </section>
  );
}

const DELIVERY_TONE: Record<string, BadgeTone> = {
  pending: 'blue',
  sending: 'blue',
  succeeded: 'green',
  failed: 'red',
};
const DELIVERY_LABEL: Record<string, string> = {
  pending: 'Waiting',
  sending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

const DELIVERIES_PAGE_SIZE = 20;

function Deliveries({ subscriptionId }: { subscriptionId: string }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ subscriptionId, page, pageSize: DELIVERIES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // A delivery in flight changes on its own: look again while one is.
    refetchInterval: (query) =>
      query.state.data?.rows.some((r) => r.status === 'pending' || r.status === 'sending') ? 2000 : false,
  });
  const replay = useMutation(
    trpc.webhooks.replay.mutationOptions({
      onSuccess: async () => {
        toast.success('Delivery queued again');
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  if (deliveries.isError)
    return <p role="alert">The deliveries could not be loaded: {deliveries.error.message}</p>;
  const columns: DataTableColumn<TDelivery>[] = [
    {
      id: 'event',
      header: 'Event',
      cell: (row) => <span className="font-mono text-xs">{row.eventType}</span>,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (row) => (
        <>
          <Badge tone={DELIVERY_TONE[row.status] ?? 'grey'}>{DELIVERY_LABEL[row.status] ?? row.status}</Badge>
          {row.status === 'pending' && row.nextAttemptAt ? (
            <span className="block text-xs text-muted-fg">next {format.dateTime(row.nextAttemptAt)}</span>
          ) : null}
        </>
      ),
    },
    {
      id: 'attempts',
      header: 'Attempts',
      className: 'text-right tabular-nums',
      cell: (row) => format.number(row.attempts),
    },
    {
      id: 'lastAttempt',
      header: 'Last attempt',
      cell: (row) => (row.lastAttemptAt ? format.dateTime(row.lastAttemptAt) : '—'),
    },
    {
      id: 'answer',
      header: 'Answer',
      truncate: true,
      minWidth: 12,
      cell: (row) => (
        <>
          {row.responseStatus ? <span className="font-mono">{row.responseStatus}</span> : null}{' '}
          <span className="text-muted-fg">{row.error ?? row.responseBody?.slice(0, 120) ?? ''}</span>
        </>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      // relative: contains the sr-only header, which would otherwise widen the page.
      className: 'relative text-right',
      cell: (row) => (
        <Button type="button" size="sm" variant="ghost" onClick={() => replay.mutate({ deliveryId: row.id })}>
          Replay<span className="sr-only"> {row.eventType}</span>
        </Button>
      ),
    },
  ];
  return (
    <div className="mt-3">
      <DataTable
        label="Deliveries, latest first"
        columns={columns}
        rows={deliveries.data?.rows ?? []}
        getRowId={(row) => row.id}
        total={deliveries.data?.total ?? 0}
        page={page}
        pageSize={DELIVERIES_PAGE_SIZE}
        onPageChange={setPage}
        loading={deliveries.isPending}
        empty={<p className="p-4 text-sm text-muted-fg">No deliveries yet.</p>}
      />
    </div>
  );
}
