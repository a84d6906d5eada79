import { todayIn, weekStartOf } from '@domain/days';
import { formatMinutes } from '@domain/timesheets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Button,
  confirm,
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
import { BellRing, Check } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { toast } from '../../ui/toaster';
import { NoAccess, useCan } from '../shell/access';
import { flaggedDays } from './day-flags';
import { MemberWeekDrawer } from './member-week-drawer';
import { RatesPanel } from './rates-panel';
import { approvable, TeamWeekTable } from './team-week-table';
import { WeekNav } from './week-nav';

const route = getRouteApi('/_main/team/timesheets');

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
  const invalidate = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.timesheets.teamWeek.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.timesheets.memberWeek.queryKey() });
  };
  const openMember = (member: string | undefined) =>
    navigate({ search: (s) => ({ ...s, member }), replace: true });
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
  const notSubmitted = members.filter((m) => m.status === 'open' || m.status === 'rejected').length;
  const weekName = weekStart === thisWeek ? 'this week' : `the week of ${format.date(weekStart)}`;

  /** Approves these weeks, after a second look when any has an unusual day. */
  const approveWeeks = async (ids: string[]) => {
    const chosen = members.filter((m) => ids.includes(m.id) && approvable(m));
    const lines = chosen.flatMap((m) =>
      flaggedDays(m.days, (d) => format.date(d, 'weekday')).map((line) => `${m.name}, ${line}`),
    );
    if (
      lines.length &&
      !(await confirm({
        title: `Approve ${chosen.length === 1 ? 'a week' : `${chosen.length} weeks`} with unusual days?`,
        // Lines, not a list: the confirm's description is a paragraph.
        message: lines.map((l) => (
          <span key={l} className="block">
            {l}
          </span>
        )),
        confirmLabel: 'Approve',
      }))
    )
      return;
    approve.mutate({ weekStart, memberIds: chosen.map((m) => m.id) });
  };

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Timesheets' }]}
        title="Timesheets"
        description={
          week.data
            ? `${notSubmitted} of ${members.length} members have not submitted ${weekName}`
            : undefined
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
          onClick={() => approveWeeks([...selected])}
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
      {week.isPending || !week.data ? (
        <Skeleton className="h-64" />
      ) : (
        <TeamWeekTable
          days={week.data.days}
          members={members}
          canRates={canRates}
          selected={selected}
          onSelect={setSelected}
          onOpen={openMember}
          onSendBack={setRejecting}
        />
      )}
      <p className="text-xs text-muted-fg">
        A mark beside a day's time flags a day to look at before approving: over the firm's daily limit of{' '}
        {week.data ? formatMinutes(week.data.dailyLimitMinutes) : '…'} hours, on a holiday or approved leave,
        or on a day off. Nobody approves their own week.
        {canRates && members.length
          ? " Approved weeks are valued at the rates frozen when they were approved; the rest are estimates at today's rates."
          : ''}
      </p>
      <MemberWeekDrawer
        weekStart={weekStart}
        memberId={search.member}
        onClose={() => openMember(undefined)}
        onApprove={(id) => approveWeeks([id])}
        onSendBack={setRejecting}
        approving={approve.isPending}
      />
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
