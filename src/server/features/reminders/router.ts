import { TRPCError } from '@trpc/server';
import {
  ZReminderDeliveriesInput,
  ZReminderInput,
  ZReminderListInput,
  ZReminderPickerInput,
  ZReminderRef,
  ZReminderUpdate,
} from '../../../domain/reminders';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { getReminder } from './detail';
import { listDeliveries, listReminders } from './list';
import { clientOptions, linkOptions, memberOptions } from './options';
import { cancelReminder, createReminder, sendNow, updateReminder } from './service';

export const remindersRouter = router({
  list: permissionProcedure('reminders.view')
    .input(ZReminderListInput)
    .query(({ ctx, input }) => listReminders(ctx.db, ctx.scope, input)),
  get: permissionProcedure('reminders.view')
    .input(ZReminderRef)
    .query(({ ctx, input }) => getReminder(ctx.db, ctx.scope, input.id)),
  deliveries: permissionProcedure('reminders.view')
    .input(ZReminderDeliveriesInput)
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.scope, input)),
  /** The form's pickers: clients (searched), a client's projects and tasks, the firm's members. */
  clientOptions: permissionProcedure('reminders.view')
    .input(ZReminderPickerInput)
    .query(({ ctx, input }) => clientOptions(ctx.db, ctx.scope, input.search)),
  linkOptions: permissionProcedure('reminders.view')
    .input(ZReminderPickerInput)
    .query(async ({ ctx, input }) => {
      if (!input.clientId) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose the client first' });
      return linkOptions(ctx.db, ctx.scope, input.clientId);
    }),
  memberOptions: permissionProcedure('reminders.view').query(({ ctx }) => memberOptions(ctx.db, ctx.scope)),
  create: permissionProcedure('reminders.create')
    .input(ZReminderInput)
    .mutation(({ ctx, input }) => createReminder(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('reminders.edit')
    .input(ZReminderUpdate)
    .mutation(({ ctx, input }) => updateReminder(ctx.db, ctx.scope, input.id, input.data, ctx.meta)),
  sendNow: permissionProcedure('reminders.edit')
    .input(ZReminderRef)
    .mutation(({ ctx, input }) => sendNow(ctx.db, ctx.scope, input.id, ctx.meta)),
  cancel: permissionProcedure('reminders.delete')
    .input(ZReminderRef)
    .mutation(({ ctx, input }) => cancelReminder(ctx.db, ctx.scope, input.id, ctx.meta)),
});
