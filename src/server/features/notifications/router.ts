import { ZMarkRead, ZNotificationList, ZNotificationPreference } from '../../../domain/notifications';
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import {
  getPreferences,
  listNotifications,
  markAllRead,
  markRead,
  setPreference,
  unreadCount,
} from './service';

// A member's own notifications: every active member may read and manage theirs, and only theirs.
export const notificationsRouter = router({
  list: staffProcedure
    .input(ZNotificationList)
    .query(({ ctx, input }) => listNotifications(ctx.db, ctx.scope, input)),
  unreadCount: staffProcedure.query(({ ctx }) => unreadCount(ctx.db, ctx.scope)),
  markRead: staffProcedure
    .input(ZMarkRead)
    .mutation(({ ctx, input }) => markRead(ctx.db, ctx.scope, input.ids, ctx.meta)),
  markAllRead: staffProcedure.mutation(({ ctx }) => markAllRead(ctx.db, ctx.scope, ctx.meta)),
  preferences: router({
    get: staffProcedure.query(({ ctx }) => getPreferences(ctx.db, ctx.scope)),
    set: staffProcedure
      .input(ZNotificationPreference)
      .mutation(({ ctx, input }) => setPreference(ctx.db, ctx.scope, input, ctx.meta)),
  }),
});
