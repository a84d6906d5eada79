import type { TAnswerValue } from '@domain/requests/answers';
import {
  clientMayAnswer,
  progressOf,
  shownItems,
  submitBlocker,
  type TRuleItem,
} from '@domain/requests/rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Button, Card, CardContent, Skeleton, toast, useFormat } from '@web/ui';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { PortalItem, type TPortalItem } from './portal-item';
import { RequestProgress, RequestStatusBadge } from './request-status-badge';

const route = getRouteApi('/clientportal/$clientId/requests/$requestId');

const asRule = (item: TPortalItem, value: TAnswerValue): TRuleItem => ({
  key: item.key,
  kind: item.kind,
  required: item.required,
  condition: item.condition,
  value,
  fileCount: item.files.length,
  notApplicable: item.notApplicableReason !== null,
  review: item.review,
});

/**
 * A request as the client answers it: the whole list by section, or one item at a time; what they
 * type is saved as they go; items that depend on an answer appear as it is given; submit when done.
 */
export function PortalRequestPage() {
  const { clientId, requestId } = route.useParams();
  const queryClient = useQueryClient();
  const format = useFormat();
  const query = useQuery(trpc.clientPortalRequests.get.queryOptions({ clientId, requestId }));
  // Answers as typed, ahead of their saves: the conditions and the count follow the keyboard.
  const [typed, setTyped] = useState<Record<string, TAnswerValue>>({});
  const [mode, setMode] = useState<'all' | 'one'>('all');
  const [at, setAt] = useState(0);
  const refresh = () => {
    queryClient.invalidateQueries({
      queryKey: trpc.clientPortalRequests.get.queryKey({ clientId, requestId }),
    });
    queryClient.invalidateQueries({ queryKey: trpc.clientPortalRequests.list.queryKey() });
  };
  const submit = useMutation(
    trpc.clientPortalRequests.submit.mutationOptions({
      onSuccess: () => {
        toast.success('Sent to the firm. Thank you!');
        refresh();
      },
    }),
  );
  const request = query.data;
  if (!request) return <Skeleton className="h-64" />;
  const answerOf = (item: TPortalItem) => (item.id in typed ? (typed[item.id] ?? null) : item.value);
  const rules = request.items.map((item) => ({ item, rule: asRule(item, answerOf(item)) }));
  const shown = new Set(shownItems(rules.map((r) => ({ ...r.rule, id: r.item.id }))).map((r) => r.id));
  const visible = request.items.filter((i) => shown.has(i.id));
  const progress = progressOf(rules.map((r) => r.rule));
  const editable = clientMayAnswer(request.status);
  const blocker = submitBlocker(
    request.status,
    rules.map((r) => r.rule),
  );
  const current = visible[Math.min(at, visible.length - 1)];
  const itemProps = (item: TPortalItem) => ({
    clientId,
    requestId,
    item,
    value: answerOf(item),
    editable,
    onValue: (value: TAnswerValue) => setTyped((t) => ({ ...t, [item.id]: value })),
    onChanged: refresh,
  });

  return (
    <div className="flex flex-col gap-4">
      <Link
        to="/clientportal/$clientId/requests"
        params={{ clientId }}
        className="flex items-center gap-1 text-sm text-muted-fg hover:underline"
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
        All requests
      </Link>
      <div className="flex flex-col gap-2">
        <div className="flex items-start justify-between gap-3">
          <h1 className="min-w-0 break-words text-xl font-semibold tracking-tight">{request.title}</h1>
          <RequestStatusBadge status={request.displayStatus} className="mt-1" />
        </div>
        <p className="text-sm text-muted-fg">Due {format.date(request.dueDate)}</p>
        {request.message ? <p className="whitespace-pre-line text-sm">{request.message}</p> : null}
        <RequestProgress {...progress} />
        {/* Read out as answers count: the bar itself is not announced when it moves. */}
        <p className="sr-only" aria-live="polite" aria-atomic="true">
          {progress.done} of {progress.total} items done
        </p>
      </div>

      <fieldset className="flex gap-2">
        <legend className="sr-only">Show</legend>
        <Button
          type="button"
          size="sm"
          variant={mode === 'all' ? 'primary' : 'outline'}
          aria-pressed={mode === 'all'}
          onClick={() => setMode('all')}
        >
          All items
        </Button>
        <Button
          type="button"
          size="sm"
          variant={mode === 'one' ? 'primary' : 'outline'}
          aria-pressed={mode === 'one'}
          onClick={() => setMode('one')}
        >
          One at a time
        </Button>
      </fieldset>

      {mode === 'one' && current ? (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-muted-fg">
            Item {Math.min(at, visible.length - 1) + 1} of {visible.length}
            {current.section ? ` · ${current.section}` : ''}
          </p>
          <PortalItem key={current.id} {...itemProps(current)} />
          <div className="flex justify-between gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={at <= 0}
              onClick={() => setAt((n) => Math.max(0, n - 1))}
            >
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={at >= visible.length - 1}
              onClick={() => setAt((n) => Math.min(visible.length - 1, n + 1))}
            >
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </div>
      ) : (
        sectionsOf(visible).map(([title, items]) => (
          <section key={title || '—'} className="flex flex-col gap-3" aria-label={title || 'Items'}>
            {title ? <h2 className="font-semibold">{title}</h2> : null}
            {items.map((item) => (
              <PortalItem key={item.id} {...itemProps(item)} />
            ))}
          </section>
        ))
      )}

      <Card>
        <CardContent className="flex flex-col gap-2 pt-4">
          {editable ? (
            <>
              <Button
                type="button"
                size="lg"
                disabled={blocker !== null}
                loading={submit.isPending}
                onClick={() => submit.mutate({ clientId, requestId })}
              >
                Submit to the firm
              </Button>
              <p className="text-sm text-muted-fg" aria-live="polite">
                {blocker ?? 'Everything required is answered. You can still change answers until you submit.'}
              </p>
            </>
          ) : (
            <p className="text-sm text-muted-fg">
              {request.status === 'submitted'
                ? 'Submitted. The firm will tell you if anything needs fixing.'
                : request.status === 'complete'
                  ? 'Complete. Thank you!'
                  : 'This request is closed.'}
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Items grouped by their section, in order. */
function sectionsOf(items: TPortalItem[]): [string, TPortalItem[]][] {
  const out: [string, TPortalItem[]][] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last[0] === item.section) last[1].push(item);
    else out.push([item.section, [item]]);
  }
  return out;
}
