import { todayIn, weekStartOf } from '@domain/days';
import { formatMinutes } from '@domain/timesheets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Checkbox,
  Dialog,
  DialogContent,
  DialogFooter,
  PageHeader,
  Skeleton,
  TabNav,
  Textarea,
  tabClasses,
  useFormat,
} from '@web/ui';
import { BellRing, Check, Undo2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { RatesPanel } from './rates-panel';
import { MoneyCells, MoneyTotals } from './week-money';
import { WeekNav } from './week-nav';

const route = getRouteApi('/_main/team/timesheets');
const STATUS_TEXT = {
  open: 'Not submitted',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Sent back',
};

/** /team/timesheets: the team's weeks for approvers; the firm's rates (?view=rates) for those who see money. */
export function TeamTimesheetsPage() {
  const canApprove = useCan('timesheets.approve');
  const canRates = useCan('timesheets.rates');
  const search = route.useSearch();
  if (!canApprove && !canRates)
    return <NoAccess message="Only members who approve timesheets or manage rates see this page." />;
  const tabs = canApprove && canRates ? <TimesheetTabs /> : null;
  if (!canApprove || search.view === 'rates')
    return (
      <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
        <PageHeader trail={[{ label: 'Timesheets' }]} title="Timesheets" />
        {tabs}
        <RatesPanel />
      </div>
    );
  return <TeamWeek tabs={tabs} canRates={canRates} />;
}

function TimesheetTabs() {
  return (
    <TabNav label="Timesheets">
      <Link
        to="/team/timesheets"
        search={(s) => ({ week: s.week, view: undefined })}
        activeOptions={{ explicitUndefined: true }}
        className={tabClasses}
      >
        Weeks
      </Link>
      <Link to="/team/timesheets" search={(s) => ({ week: s.week, view: 'rates' })} className={tabClasses}>
        Rates
      </Link>
    </TabNav>
  );
}

function TeamWeek({ tabs, canRates }: { tabs: ReactNode; canRates: boolean }) {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const thisWeek = weekStartOf(todayIn(format.timeZone));
  const weekStart = search.week ?? thisWeek;
  const queryClient = useQueryClient();
  const week = useQuery(trpc.timesheets.teamWeek.queryOptions({ weekStart }));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [rejecting, setRejecting] = useState<{ id: string; name: string } | null>(null);
  const [comment, setComment] = useState('');
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.timesheets.teamWeek.queryKey() });
  const approve = useMutation(
    trpc.timesheets.approve.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Approved ${r.approved} week${r.approved === 1 ? '' : 's'}`);
        setSelected(new Set());
      },
      onSettled: invalidate,
    }),
  );
  const reject = useMutation(
    trpc.timesheets.reject.mutationOptions({
      onSuccess: () => {
        toast.success('Week sent back');
        setRejecting(null);
        setComment('');
      },
      onSettled: invalidate,
    }),
  );
  const remind = useMutation(
    trpc.timesheets.remind.mutationOptions({
      onSuccess: (r) =>
        toast.success(
          r.reminded
            ? `Reminded ${r.reminded} member${r.reminded === 1 ? '' : 's'}`
            : 'Everyone has submitted',
        ),
    }),
  );
  const members = week.data?.members ?? [];
  const submitted = members.filter((m) => m.status === 'submitted');
  const notSubmitted = members.filter((m) => m.status === 'open' || m.status === 'rejected').length;
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Timesheets' }]}
        title="Timesheets"
        description={
          week.data ? `${notSubmitted} of ${members.length} members have not submitted this week` : undefined
        }
        actions={
          <WeekNav
            weekStart={weekStart}
            thisWeek={thisWeek}
            onWeek={(w) => navigate({ search: { week: w } })}
          />
        }
      />
      {tabs}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={selected.size === 0}
          loading={approve.isPending}
          onClick={() => approve.mutate({ weekStart, memberIds: [...selected] })}
        >
          <Check aria-hidden /> Approve selected ({selected.size})
        </Button>
        <Button
          variant="outline"
          size="sm"
          loading={remind.isPending}
          disabled={notSubmitted === 0}
          onClick={() => remind.mutate({ weekStart })}
        >
          <BellRing aria-hidden /> Remind those who have not submitted
        </Button>
      </div>
      {week.isPending ? (
        <Skeleton className="h-64" />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-surface">
          <table className="w-full text-sm">
            <thead>
              <tr className="border-b border-border text-left text-xs text-muted-fg">
                <th scope="col" className="w-10 p-2">
                  <Checkbox
                    aria-label="Select every submitted week"
                    checked={submitted.length > 0 && submitted.every((m) => selected.has(m.id))}
                    onCheckedChange={(on) =>
                      setSelected(on === true ? new Set(submitted.map((m) => m.id)) : new Set())
                    }
                  />
                </th>
                <th scope="col" className="p-2 font-medium">
                  Member
                </th>
                {week.data?.days.map((d) => (
                  <th key={d} scope="col" className="p-2 text-right font-medium">
                    {format.date(d, 'weekday')}
                  </th>
                ))}
                <th scope="col" className="p-2 text-right font-medium">
                  Week
                </th>
                {canRates ? (
                  <>
                    <th scope="col" className="p-2 text-right font-medium">
                      Billable value
                    </th>
                    <th scope="col" className="p-2 text-right font-medium">
                      Cost
                    </th>
                  </>
                ) : null}
                <th scope="col" className="p-2 font-medium">
                  Status
                </th>
                <th scope="col" className="p-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const total = m.days.reduce((s, d) => s + d.minutes, 0);
                const expected = m.days.reduce((s, d) => s + d.expected, 0);
                return (
                  <tr key={m.id} className="border-b border-border last:border-0">
                    <td className="p-2">
                      <Checkbox
                        aria-label={`Select ${m.name}`}
                        disabled={m.status !== 'submitted'}
                        checked={selected.has(m.id)}
                        onCheckedChange={(on) => toggle(m.id, on === true)}
                      />
                    </td>
                    <th scope="row" className="p-2 text-left font-normal">
                      {m.name}
                    </th>
                    {m.days.map((d) => (
                      <td
                        key={d.date}
                        className={`p-2 text-right tabular-nums ${d.minutes < d.expected ? 'text-warning' : ''}`}
                      >
                        {formatMinutes(d.minutes) || (d.expected ? '0:00' : '')}
                      </td>
                    ))}
                    <td className="p-2 text-right tabular-nums">
                      {formatMinutes(total) || '0:00'} / {formatMinutes(expected) || '0:00'}
                    </td>
                    {canRates ? <MoneyCells money={m.money} /> : null}
                    <td className="p-2">
                      <Badge title={m.comment ?? undefined}>{STATUS_TEXT[m.status]}</Badge>
                    </td>
                    <td className="p-2 text-right">
                      {(m.status === 'submitted' || m.status === 'approved') && (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setRejecting({ id: m.id, name: m.name })}
                        >
                          <Undo2 aria-hidden /> Send back
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
            {canRates && members.length ? (
              <MoneyTotals members={members} columnsBefore={3 + (week.data?.days.length ?? 0)} />
            ) : null}
          </table>
        </div>
      )}
      {canRates && members.length ? (
        <p className="text-xs text-muted-fg">
          Approved weeks are valued at the rates frozen when they were approved; the rest are estimates at
          today's rates.
        </p>
      ) : null}
      <Dialog open={!!rejecting} onOpenChange={(open) => !open && setRejecting(null)}>
        <DialogContent
          title={`Send back ${rejecting?.name ?? ''}'s week`}
          description="The week opens again for them to change; later weeks stay as they are."
        >
          <form
            className="flex flex-col gap-3 p-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (rejecting) reject.mutate({ weekStart, memberId: rejecting.id, comment });
            }}
          >
            <Textarea
              aria-label="Comment"
              placeholder="What needs changing?"
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
            <DialogFooter>
              <Button type="submit" variant="danger" loading={reject.isPending} disabled={!comment.trim()}>
                Send back
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
