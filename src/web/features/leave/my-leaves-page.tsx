import {
  formatAmountWithUnit,
  LEAVE_PART_LABELS,
  LEAVE_STATUS_LABELS,
  type TLeavePart,
  ZLeaveRequestFields,
} from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Field,
  Input,
  PageHeader,
  Textarea,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { reportCallError, trpc } from '../../lib/trpc';

const selectClass = 'h-9 w-full rounded-md border border-input bg-background px-2 text-sm';

/** /my-account/leaves: balances, the apply form with what it deducts, and the year's history. */
export function MyLeavesPage() {
  const year = new Date().getFullYear();
  const queryClient = useQueryClient();
  const mine = useQuery(trpc.leave.requests.mine.queryOptions({ year }));
  const types = useQuery(trpc.leave.types.list.queryOptions({}));
  const [draft, setDraft] = useState({
    leaveTypeId: '',
    startDate: '',
    endDate: '',
    part: 'full' as TLeavePart,
    hours: '',
    reason: '',
  });
  const candidate = ZLeaveRequestFields.safeParse({
    leaveTypeId: draft.leaveTypeId,
    startDate: draft.startDate,
    endDate: draft.part === 'full' ? draft.endDate || draft.startDate : draft.startDate,
    part: draft.part,
    minutes: draft.part === 'hours' ? Math.round(Number(draft.hours) * 60) : null,
    reason: draft.reason || undefined,
  });
  const preview = useQuery({
    ...trpc.leave.requests.preview.queryOptions(candidate.success ? candidate.data : (undefined as never)),
    enabled: candidate.success,
    retry: false,
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.leave.requests.mine.queryKey() });
  const submit = useMutation(
    trpc.leave.requests.submit.mutationOptions({
      onSuccess: () => {
        toast.success('Leave requested');
        setDraft((d) => ({ ...d, startDate: '', endDate: '', hours: '', reason: '' }));
        void invalidate();
      },
      onError: (e) => reportCallError(e, 'leave.requests.submit'),
    }),
  );
  const cancel = useMutation(
    trpc.leave.requests.cancel.mutationOptions({
      onSuccess: () => {
        toast.success('Leave cancelled');
        void invalidate();
      },
      onError: (e) => reportCallError(e, 'leave.requests.cancel'),
    }),
  );
  const unit = types.data?.find((t) => t.id === draft.leaveTypeId)?.unit ?? 'day';
  const parts: TLeavePart[] =
    unit === 'day'
      ? ['full']
      : unit === 'half_day'
        ? ['full', 'first_half', 'second_half']
        : ['full', 'first_half', 'second_half', 'hours'];

  return (
    <div className="space-y-6">
      <PageHeader title="My leaves" description={`Your balances and requests for ${year}`} />
      <section aria-label="Balances" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {mine.data?.balances.map((b) => (
          <Card key={b.leaveTypeId}>
            <CardHeader>
              <CardTitle>{b.name}</CardTitle>
            </CardHeader>
            <CardContent className="text-sm">
              <p className="text-2xl font-semibold">{formatAmountWithUnit(b.balance - b.pending, b.unit)}</p>
              <p className="text-muted-foreground">
                left · {formatAmountWithUnit(b.taken, b.unit)} taken
                {b.pending ? ` · ${formatAmountWithUnit(b.pending, b.unit)} pending` : ''}
              </p>
            </CardContent>
          </Card>
        ))}
        {mine.data && mine.data.balances.length === 0 && (
          <p className="text-sm">No leave types yet: ask an admin to add them.</p>
        )}
      </section>

      <Card>
        <CardHeader>
          <CardTitle>Apply for leave</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            className="grid gap-3 sm:grid-cols-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (candidate.success) submit.mutate(candidate.data);
              else toast.error(candidate.error.issues[0]?.message ?? 'Check the form');
            }}
          >
            <Field label="Leave type" required>
              <select
                className={selectClass}
                value={draft.leaveTypeId}
                onChange={(e) => setDraft({ ...draft, leaveTypeId: e.target.value, part: 'full' })}
              >
                <option value="">Choose…</option>
                {types.data?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Taken as">
              <select
                className={selectClass}
                value={draft.part}
                onChange={(e) => setDraft({ ...draft, part: e.target.value as TLeavePart })}
              >
                {parts.map((p) => (
                  <option key={p} value={p}>
                    {LEAVE_PART_LABELS[p]}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={draft.part === 'full' ? 'First day' : 'Day'} required>
              <Input
                type="date"
                value={draft.startDate}
                onChange={(e) => setDraft({ ...draft, startDate: e.target.value })}
              />
            </Field>
            {draft.part === 'full' && (
              <Field label="Last day">
                <Input
                  type="date"
                  value={draft.endDate}
                  onChange={(e) => setDraft({ ...draft, endDate: e.target.value })}
                />
              </Field>
            )}
            {draft.part === 'hours' && (
              <Field label="Hours" required>
                <Input
                  type="number"
                  step="0.25"
                  min="0.25"
                  value={draft.hours}
                  onChange={(e) => setDraft({ ...draft, hours: e.target.value })}
                />
              </Field>
            )}
            <Field label="Reason" className="sm:col-span-2">
              <Textarea
                value={draft.reason}
                onChange={(e) => setDraft({ ...draft, reason: e.target.value })}
              />
            </Field>
            <div className="sm:col-span-2 text-sm" aria-live="polite">
              {preview.data && (
                <p>
                  Deducts <strong>{formatAmountWithUnit(preview.data.amount, preview.data.unit)}</strong>;
                  balance after:{' '}
                  <strong>{formatAmountWithUnit(preview.data.after, preview.data.unit)}</strong>
                  {preview.data.needsSecondLevel ? ' · needs two approvals' : ''}
                </p>
              )}
              {preview.error && <p className="text-destructive">{preview.error.message}</p>}
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={submit.isPending}>
                Submit request
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>History</CardTitle>
        </CardHeader>
        <CardContent>
          {mine.data?.requests.length ? (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left">
                  <th>Type</th>
                  <th>Dates</th>
                  <th>Deducted</th>
                  <th>Status</th>
                  <th>Comment</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {mine.data.requests.map((r) => (
                  <tr key={r.id} className="border-t">
                    <td>{r.typeName}</td>
                    <td>
                      {r.startDate}
                      {r.endDate !== r.startDate ? ` – ${r.endDate}` : ''}{' '}
                      {r.part !== 'full' ? `(${LEAVE_PART_LABELS[r.part]})` : ''}
                    </td>
                    <td>{formatAmountWithUnit(r.amount, r.unit)}</td>
                    <td>
                      <Badge>{LEAVE_STATUS_LABELS[r.status]}</Badge>
                    </td>
                    <td>{r.decisionComment}</td>
                    <td>
                      {(r.status === 'pending' || r.status === 'approved') && (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => cancel.mutate({ requestId: r.id })}
                        >
                          Cancel
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm text-muted-foreground">No requests this year.</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
