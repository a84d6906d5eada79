import { todayIn } from '@domain/days';
import {
  attachmentRequiredMessage,
  dayCountText,
  formatAmountWithUnit,
  LEAVE_ATTACHMENT_MAX_BYTES,
  LEAVE_PART_LABELS,
  type TLeavePart,
  type TLeaveUnit,
  ZLeaveRequestFields,
} from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  confirm,
  type DataTableColumn,
  DatePicker,
  EmptyState,
  Field,
  Input,
  PageHeader,
  Select,
  Skeleton,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { CalendarDays, CalendarOff } from 'lucide-react';
import { useState } from 'react';
import type { AppRouter } from '../../lib/trpc';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { AttachmentField, LeaveAttachmentFile, type TLeaveAttachment } from './leave-attachment';
import { LeaveDates, LeaveStatusBadge, LocalTable } from './parts';

type TMine = inferRouterOutputs<AppRouter>['leave']['requests']['mine'];
type TMyRequest = TMine['requests'][number];

const PARTS_BY_UNIT: Record<TLeaveUnit, TLeavePart[]> = {
  day: ['full'],
  half_day: ['full', 'first_half', 'second_half'],
  hour: ['full', 'first_half', 'second_half', 'hours'],
};

/** /my-account/leaves: balances, the apply form with what it deducts, and the year's history. */
export function MyLeavesPage() {
  const format = useFormat();
  const year = Number(todayIn(format.timeZone).slice(0, 4));
  const canApply = useCan('leaves.create');
  const mine = useQuery(trpc.leave.requests.mine.queryOptions({ year }));
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="My leaves"
        description={`Your balances and requests for ${year}.`}
        trail={[{ label: 'My leaves' }]}
      />
      <Balances mine={mine.data} loading={mine.isPending} />
      {canApply && mine.data && mine.data.balances.length > 0 ? <ApplyForm mine={mine.data} /> : null}
      <History rows={mine.data?.requests ?? []} loading={mine.isPending} canCancel={canApply} />
    </div>
  );
}

function Balances({ mine, loading }: { mine: TMine | undefined; loading: boolean }) {
  if (loading) {
    return (
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
    );
  }
  if (!mine || mine.balances.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={CalendarOff}
          title="No leave types yet"
          message="An admin adds the firm's leave types under Admin › Leave types."
        />
      </Card>
    );
  }
  return (
    <section aria-label="Balances" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {mine.balances.map((b) => (
        <Card key={b.leaveTypeId}>
          <CardHeader>
            <CardTitle>{b.name}</CardTitle>
          </CardHeader>
          <CardContent className="text-sm">
            <p className="text-2xl font-semibold tabular-nums" data-testid={`balance-${b.name}`}>
              {formatAmountWithUnit(b.balance - b.pending, b.unit)}
            </p>
            <p className="text-muted-fg">
              left · {formatAmountWithUnit(b.taken, b.unit)} taken
              {b.pending ? ` · ${formatAmountWithUnit(b.pending, b.unit)} pending` : ''}
            </p>
          </CardContent>
        </Card>
      ))}
    </section>
  );
}

const EMPTY_DRAFT = {
  leaveTypeId: '',
  startDate: null as string | null,
  endDate: null as string | null,
  part: 'full' as TLeavePart,
  hours: '',
  reason: '',
  attachment: null as TLeaveAttachment | null,
};

function ApplyForm({ mine }: { mine: TMine }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [tried, setTried] = useState(false);
  const candidate = ZLeaveRequestFields.safeParse({
    leaveTypeId: draft.leaveTypeId,
    startDate: draft.startDate ?? '',
    endDate: (draft.part === 'full' ? draft.endDate || draft.startDate : draft.startDate) ?? '',
    part: draft.part,
    minutes: draft.part === 'hours' ? Math.round(Number(draft.hours) * 60) : null,
    reason: draft.reason || undefined,
    attachmentId: draft.attachment?.id ?? null,
  });
  const errorOf = (path: string) =>
    tried && !candidate.success ? candidate.error.issues.find((i) => i.path[0] === path)?.message : undefined;
  const preview = useQuery({
    ...trpc.leave.requests.preview.queryOptions(candidate.success ? candidate.data : (undefined as never)),
    enabled: candidate.success,
    retry: false,
  });
  const submit = useMutation(
    trpc.leave.requests.submit.mutationOptions({
      onSuccess: () => {
        toast.success('Leave requested');
        setDraft({ ...EMPTY_DRAFT, leaveTypeId: draft.leaveTypeId });
        setTried(false);
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  const type = mine.balances.find((t) => t.leaveTypeId === draft.leaveTypeId);
  const unit = type?.unit ?? 'day';
  // The preview knows the request's working days; before it has them, the type's rule is enough.
  const attachmentRequired = !!preview.data?.attachmentRequired;
  const missingAttachment = attachmentRequired && !draft.attachment;
  const afterDays = type?.attachmentAfterDays ?? null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Apply for leave</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (candidate.success && !missingAttachment) submit.mutate(candidate.data);
          }}
        >
          <Field label="Leave type" required error={errorOf('leaveTypeId')}>
            <Select
              value={draft.leaveTypeId || undefined}
              placeholder="Choose a leave type"
              options={mine.balances.map((t) => ({ value: t.leaveTypeId, label: t.name }))}
              onValueChange={(leaveTypeId) => setDraft({ ...draft, leaveTypeId, part: 'full' })}
            />
          </Field>
          <Field label="Taken as">
            <Select
              value={draft.part}
              options={PARTS_BY_UNIT[unit].map((p) => ({ value: p, label: LEAVE_PART_LABELS[p] }))}
              onValueChange={(part) => setDraft({ ...draft, part: part as TLeavePart })}
            />
          </Field>
          <Field label={draft.part === 'full' ? 'First day' : 'Day'} required error={errorOf('startDate')}>
            <DatePicker value={draft.startDate} onChange={(startDate) => setDraft({ ...draft, startDate })} />
          </Field>
          {draft.part === 'full' ? (
            <Field label="Last day" hint="Leave empty for one day" error={errorOf('endDate')}>
              <DatePicker
                value={draft.endDate}
                min={draft.startDate ?? undefined}
                onChange={(endDate) => setDraft({ ...draft, endDate })}
              />
            </Field>
          ) : null}
          {draft.part === 'hours' ? (
            <Field label="Hours" required error={errorOf('minutes')}>
              <Input
                type="number"
                inputMode="decimal"
                step="0.25"
                min="0.25"
                value={draft.hours}
                onChange={(e) => setDraft({ ...draft, hours: e.target.value })}
              />
            </Field>
          ) : null}
          <Field label="Reason" className="sm:col-span-2 lg:col-span-4" error={errorOf('reason')}>
            <Textarea
              rows={2}
              value={draft.reason}
              onChange={(e) => setDraft({ ...draft, reason: e.target.value })}
            />
          </Field>
          <div className="sm:col-span-2 lg:col-span-4">
            <AttachmentField
              value={draft.attachment}
              onChange={(attachment) => setDraft({ ...draft, attachment })}
              required={attachmentRequired}
              hint={`${
                type && afterDays !== null
                  ? `Required beyond ${dayCountText(afterDays)} of ${type.name}`
                  : 'Optional'
              }: a file for your approver, such as a medical certificate, up to ${format.bytes(LEAVE_ATTACHMENT_MAX_BYTES)}`}
              error={
                tried && missingAttachment && type
                  ? attachmentRequiredMessage(type.name, afterDays ?? 0)
                  : undefined
              }
            />
          </div>
          <div className="flex flex-wrap items-center gap-4 sm:col-span-2 lg:col-span-4">
            <Button type="submit" loading={submit.isPending}>
              Submit request
            </Button>
            <p className="text-sm" aria-live="polite" data-testid="leave-preview">
              {preview.data ? (
                <>
                  Deducts <strong>{formatAmountWithUnit(preview.data.amount, preview.data.unit)}</strong>
                  {' · '}balance after{' '}
                  <strong>{formatAmountWithUnit(preview.data.after, preview.data.unit)}</strong>
                  {preview.data.needsSecondLevel ? ' · needs two approvals' : ''}
                  {preview.data.attachmentRequired ? ' · needs an attachment' : ''}
                </>
              ) : preview.error ? (
                <span className="text-danger">{preview.error.message}</span>
              ) : (
                <span className="text-muted-fg">Choose a type and dates to see what it deducts.</span>
              )}
            </p>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function History({ rows, loading, canCancel }: { rows: TMyRequest[]; loading: boolean; canCancel: boolean }) {
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.leave.requests.cancel.mutationOptions({
      onSuccess: () => {
        toast.success('Leave cancelled');
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  const columns: DataTableColumn<TMyRequest>[] = [
    { id: 'type', header: 'Type', cell: (r) => <span className="font-medium">{r.typeName}</span> },
    { id: 'dates', header: 'Dates', cell: (r) => <LeaveDates {...r} /> },
    {
      id: 'amount',
      header: 'Deducted',
      className: 'text-right tabular-nums whitespace-nowrap',
      cell: (r) => formatAmountWithUnit(r.amount, r.unit),
    },
    { id: 'status', header: 'Status', cell: (r) => <LeaveStatusBadge status={r.status} /> },
    {
      id: 'comment',
      header: 'Comment',
      className: 'hidden md:table-cell',
      // Free text: it shares what room is left and clips, so the columns after it stay in view.
      truncate: true,
      lines: 2,
      cell: (r) => <span className="text-muted-fg">{r.decisionComment ?? r.reason ?? '-'}</span>,
    },
    {
      id: 'attachment',
      header: 'Attachment',
      className: 'hidden lg:table-cell',
      cell: (r) => (r.attachment ? <LeaveAttachmentFile attachment={r.attachment} compact /> : null),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (r) =>
        canCancel && r.cancel ? (
          <Button
            size="sm"
            variant="outline"
            loading={cancel.isPending && cancel.variables?.requestId === r.id}
            onClick={async () => {
              if (
                await confirm({
                  title: 'Cancel this leave?',
                  message:
                    r.cancel === 'return-days'
                      ? 'The days return to your balance.'
                      : 'The request is withdrawn.',
                  confirmLabel: 'Cancel leave',
                  danger: true,
                })
              ) {
                cancel.mutate({ requestId: r.id });
              }
            }}
          >
            Cancel
          </Button>
        ) : null,
    },
  ];
  return (
    <section aria-labelledby="leave-history" className="flex flex-col gap-2">
      <h2 id="leave-history" className="text-sm font-semibold">
        History
      </h2>
      <LocalTable
        label="Your leave requests"
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        loading={loading}
        empty={<EmptyState icon={CalendarDays} title="No requests this year" />}
      />
    </section>
  );
}
