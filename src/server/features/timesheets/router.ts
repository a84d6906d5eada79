import { ZApprovalSettings, ZMemberWeekInput } from '../../../domain/timesheet-approval';
import { ZRateListInput, ZRateSet, ZTaskRateInput } from '../../../domain/timesheet-rates';
import {
  ZCellInput,
  ZEntryInput,
  ZEntryRef,
  ZEntryUpdate,
  ZLockSettings,
  ZRowOptionsInput,
  ZTeamWeekInput,
  ZTimerFinish,
  ZTimerRef,
  ZTimerStart,
  ZWeekDecision,
  ZWeekInput,
  ZWeekReject,
} from '../../../domain/timesheets';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { approveWeeks, lockSettings, rejectWeek, remindWeek, setLockSettings, submitWeek } from './approval';
import { approvalSettings, setApprovalSettings } from './approval-settings';
import { createEntry, deleteEntry, getEntry, setCell, updateEntry } from './entries';
import { clientRates, memberRates, serviceRates, setRate, taskRate } from './rate-settings';
import { memberWeek, teamWeek } from './team-week';
import { currentTimers, discardTimer, finishTimer, startTimer, stopTimer } from './timer';
import { myWeek, rowOptions } from './week';

// A member records their own time with timesheets.create; timesheets.approve sees the team's weeks,
// decides them and may change entries after approval or the lock (each change logged).
const timerRouter = router({
  current: permissionProcedure('timesheets.create').query(({ ctx }) => currentTimers(ctx.db, ctx.scope)),
  start: permissionProcedure('timesheets.create')
    .input(ZTimerStart)
    .mutation(({ ctx, input }) => startTimer(ctx.db, ctx.scope, input, ctx.meta)),
  stop: permissionProcedure('timesheets.create').mutation(({ ctx }) =>
    stopTimer(ctx.db, ctx.scope, ctx.meta),
  ),
  finish: permissionProcedure('timesheets.create')
    .input(ZTimerFinish)
    .mutation(({ ctx, input }) => finishTimer(ctx.db, ctx.scope, input, ctx.meta)),
  discard: permissionProcedure('timesheets.create')
    .input(ZTimerRef)
    .mutation(({ ctx, input }) => discardTimer(ctx.db, ctx.scope, input.timerId, ctx.meta)),
});

// Money is timesheets.rates alone: these set rates, and teamWeek adds amounts only for its holders.
const ratesRouter = router({
  members: permissionProcedure('timesheets.rates')
    .input(ZRateListInput)
    .query(({ ctx, input }) => memberRates(ctx.db, ctx.scope, input)),
  clients: permissionProcedure('timesheets.rates')
    .input(ZRateListInput)
    .query(({ ctx, input }) => clientRates(ctx.db, ctx.scope, input)),
  services: permissionProcedure('timesheets.rates')
    .input(ZRateListInput)
    .query(({ ctx, input }) => serviceRates(ctx.db, ctx.scope, input)),
  task: permissionProcedure('timesheets.rates')
    .input(ZTaskRateInput)
    .query(({ ctx, input }) => taskRate(ctx.db, ctx.scope, input.taskId)),
  set: permissionProcedure('timesheets.rates')
    .input(ZRateSet)
    .mutation(({ ctx, input }) => setRate(ctx.db, ctx.scope, input, ctx.meta)),
});

export const timesheetsRouter = router({
  timer: timerRouter,
  rates: ratesRouter,
  myWeek: permissionProcedure('timesheets.view')
    .input(ZWeekInput)
    .query(({ ctx, input }) => myWeek(ctx.db, ctx.scope, input.weekStart)),
  rowOptions: permissionProcedure('timesheets.view')
    .input(ZRowOptionsInput)
    .query(({ ctx, input }) => rowOptions(ctx.db, ctx.scope, input)),
  get: permissionProcedure('timesheets.view')
    .input(ZEntryRef)
    .query(({ ctx, input }) => getEntry(ctx.db, ctx.scope, input.entryId)),
  create: permissionProcedure('timesheets.create')
    .input(ZEntryInput)
    .mutation(({ ctx, input }) => createEntry(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('timesheets.create')
    .input(ZEntryUpdate)
    .mutation(({ ctx, input: { entryId, ...values } }) =>
      updateEntry(ctx.db, ctx.scope, entryId, values, ctx.meta),
    ),
  delete: permissionProcedure('timesheets.create')
    .input(ZEntryRef)
    .mutation(({ ctx, input }) => deleteEntry(ctx.db, ctx.scope, input.entryId, ctx.meta)),
  setCell: permissionProcedure('timesheets.create')
    .input(ZCellInput)
    .mutation(({ ctx, input }) => setCell(ctx.db, ctx.scope, input, ctx.meta)),
  submitWeek: permissionProcedure('timesheets.create')
    .input(ZWeekInput)
    .mutation(({ ctx, input }) => submitWeek(ctx.db, ctx.scope, input.weekStart, ctx.meta)),
  teamWeek: permissionProcedure('timesheets.approve')
    .input(ZTeamWeekInput)
    .query(({ ctx, input }) => teamWeek(ctx.db, ctx.scope, input.weekStart)),
  memberWeek: permissionProcedure('timesheets.approve')
    .input(ZMemberWeekInput)
    .query(({ ctx, input }) => memberWeek(ctx.db, ctx.scope, input.memberId, input.weekStart)),
  approve: permissionProcedure('timesheets.approve')
    .input(ZWeekDecision)
    .mutation(({ ctx, input }) => approveWeeks(ctx.db, ctx.scope, input, ctx.meta)),
  reject: permissionProcedure('timesheets.approve')
    .input(ZWeekReject)
    .mutation(({ ctx, input }) => rejectWeek(ctx.db, ctx.scope, input, ctx.meta)),
  remind: permissionProcedure('timesheets.approve')
    .input(ZTeamWeekInput)
    .mutation(({ ctx, input }) => remindWeek(ctx.db, ctx.scope, input.weekStart, ctx.meta)),
  approvalSettings: permissionProcedure('settings.view').query(({ ctx }) =>
    approvalSettings(ctx.db, ctx.scope),
  ),
  setApprovalSettings: permissionProcedure('settings.edit')
    .input(ZApprovalSettings)
    .mutation(({ ctx, input }) => setApprovalSettings(ctx.db, ctx.scope, input, ctx.meta)),
  lock: permissionProcedure('timesheets.view').query(({ ctx }) => lockSettings(ctx.db, ctx.scope)),
  setLock: permissionProcedure('settings.edit')
    .input(ZLockSettings)
    .mutation(({ ctx, input }) => setLockSettings(ctx.db, ctx.scope, input, ctx.meta)),
});
