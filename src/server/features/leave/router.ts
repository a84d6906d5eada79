import { z } from 'zod';
import {
  ZAllocationInput,
  ZAvailability,
  ZBalancesInput,
  ZHolidayCopy,
  ZHolidayFields,
  ZHolidayImport,
  ZHolidayList,
  ZHolidayRef,
  ZHolidayUpdate,
  ZLeaveCalendar,
  ZLeaveDecision,
  ZLeaveRequestFields,
  ZLeaveRequestRef,
  ZLeaveSettings,
  ZLeaveTypeFields,
  ZLeaveTypeRef,
  ZLeaveTypeUpdate,
  ZMemberWork,
  ZMyLeaveList,
  ZTeamLeaveList,
} from '../../../domain/leave';
import { router } from '../../trpc/init';
import { permissionProcedure, staffProcedure } from '../../trpc/procedures';
import { availabilityOn } from './availability';
import { decideLeave } from './decide';
import {
  copyHolidaysToNextYear,
  createHoliday,
  deleteHoliday,
  importHolidays,
  listHolidays,
  updateHoliday,
} from './holidays';
import { allocate, balances } from './ledger';
import { myLeave, teamCalendar, teamRequests } from './lists';
import { applyLeave, cancelLeave, previewLeave } from './requests';
import { listLeaveRuns } from './runs';
import { archiveLeaveType, createLeaveType, listLeaveTypes, updateLeaveType } from './types';
import { getLeaveSettings, listMemberWork, updateLeaveSettings, updateMemberWork } from './work';

// Reading the firm's leave set-up takes `leaves.view`; changing it `leaves.edit` (`leaves.delete` to
// remove); applying and cancelling one's own `leaves.create`. Deciding is for the member's manager or
// a `leaves.approve` holder, which the service checks per request (a manager may lack the permission).

const holidays = router({
  list: permissionProcedure('leaves.view')
    .input(ZHolidayList)
    .query(({ ctx, input }) => listHolidays(ctx.db, ctx.scope.orgId, input)),
  create: permissionProcedure('leaves.edit')
    .input(ZHolidayFields)
    .mutation(({ ctx, input }) => createHoliday(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('leaves.edit')
    .input(ZHolidayUpdate)
    .mutation(({ ctx, input: { holidayId, ...values } }) =>
      updateHoliday(ctx.db, ctx.scope, holidayId, values, ctx.meta),
    ),
  delete: permissionProcedure('leaves.delete')
    .input(ZHolidayRef)
    .mutation(({ ctx, input }) => deleteHoliday(ctx.db, ctx.scope, input.holidayId, ctx.meta)),
  import: permissionProcedure('leaves.edit')
    .input(ZHolidayImport)
    .mutation(({ ctx, input }) => importHolidays(ctx.db, ctx.scope, input, ctx.meta)),
  copyToNextYear: permissionProcedure('leaves.edit')
    .input(ZHolidayCopy)
    .mutation(({ ctx, input }) => copyHolidaysToNextYear(ctx.db, ctx.scope, input, ctx.meta)),
});

const types = router({
  list: permissionProcedure('leaves.view')
    .input(z.object({ includeArchived: z.boolean().default(false) }).default({ includeArchived: false }))
    .query(({ ctx, input }) => listLeaveTypes(ctx.db, ctx.scope.orgId, input.includeArchived)),
  create: permissionProcedure('leaves.edit')
    .input(ZLeaveTypeFields)
    .mutation(({ ctx, input }) => createLeaveType(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('leaves.edit')
    .input(ZLeaveTypeUpdate)
    .mutation(({ ctx, input: { leaveTypeId, ...values } }) =>
      updateLeaveType(ctx.db, ctx.scope, leaveTypeId, values, ctx.meta),
    ),
  archive: permissionProcedure('leaves.delete')
    .input(ZLeaveTypeRef)
    .mutation(({ ctx, input }) => archiveLeaveType(ctx.db, ctx.scope, input.leaveTypeId, ctx.meta)),
});

const setup = router({
  get: permissionProcedure('leaves.view').query(({ ctx }) => getLeaveSettings(ctx.db, ctx.scope.orgId)),
  update: permissionProcedure('leaves.edit')
    .input(ZLeaveSettings)
    .mutation(({ ctx, input }) => updateLeaveSettings(ctx.db, ctx.scope, input, ctx.meta)),
  members: permissionProcedure('leaves.view').query(({ ctx }) => listMemberWork(ctx.db, ctx.scope.orgId)),
  updateMember: permissionProcedure('leaves.edit')
    .input(ZMemberWork)
    .mutation(({ ctx, input }) => updateMemberWork(ctx.db, ctx.scope, input, ctx.meta)),
  balances: permissionProcedure('leaves.edit')
    .input(ZBalancesInput)
    .query(({ ctx, input }) => balances(ctx.db, ctx.scope.orgId, input.year, input.memberIds)),
  allocate: permissionProcedure('leaves.edit')
    .input(ZAllocationInput)
    .mutation(({ ctx, input }) => allocate(ctx.db, ctx.scope, input, ctx.meta)),
  runs: permissionProcedure('leaves.edit').query(({ ctx }) => listLeaveRuns(ctx.db, ctx.scope.orgId)),
});

const requests = router({
  mine: permissionProcedure('leaves.view')
    .input(ZMyLeaveList)
    .query(({ ctx, input }) => myLeave(ctx.db, ctx.scope, input.year)),
  preview: permissionProcedure('leaves.create')
    .input(ZLeaveRequestFields)
    .query(({ ctx, input }) => previewLeave(ctx.db, ctx.scope.orgId, ctx.scope.memberId, input)),
  submit: permissionProcedure('leaves.create')
    .input(ZLeaveRequestFields)
    .mutation(({ ctx, input }) => applyLeave(ctx.db, ctx.scope, input, ctx.meta)),
  cancel: permissionProcedure('leaves.create')
    .input(ZLeaveRequestRef)
    .mutation(({ ctx, input }) => cancelLeave(ctx.db, ctx.scope, input.requestId, ctx.meta)),
  team: staffProcedure
    .input(ZTeamLeaveList)
    .query(({ ctx, input }) => teamRequests(ctx.db, ctx.scope, input.status)),
  decide: staffProcedure
    .input(ZLeaveDecision)
    .mutation(({ ctx, input }) => decideLeave(ctx.db, ctx.scope, input, ctx.meta)),
  calendar: staffProcedure
    .input(ZLeaveCalendar)
    .query(({ ctx, input }) => teamCalendar(ctx.db, ctx.scope, input.from, input.to)),
});

export const leaveRouter = router({
  holidays,
  types,
  setup,
  requests,
  // Whoever may see and assign tasks sees who is free on a day: names are already on every task.
  availability: permissionProcedure('tasks.view')
    .input(ZAvailability)
    .query(({ ctx, input }) => availabilityOn(ctx.db, ctx.scope.orgId, input.day, input.memberIds)),
});
