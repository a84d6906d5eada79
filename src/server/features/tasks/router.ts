import { z } from 'zod';
import {
  ZChecklistAdd,
  ZChecklistRemove,
  ZChecklistToggle,
  ZCommentAdd,
  ZTaskAttachmentCandidates,
  ZTaskAttachmentRef,
  ZTaskBulk,
  ZTaskInput,
  ZTaskListInput,
  ZTaskRef,
  ZTaskReorder,
  ZTaskSetStatus,
  ZTaskSettings,
  ZTaskUpdate,
} from '../../../domain/tasks';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { firmOf } from './access';
import { attachDocument, attachmentCandidates, detachDocument, listAttachments } from './attachments';
import { editChecklist } from './checklist';
import { addComment, listComments } from './comments';
import { getTask, projectOptions, taskOptions, updateTaskSettings } from './detail';
import { listTasks } from './list';
import { reorderTask } from './reorder';
import { bulkTasks, createTask, deleteTask, setTaskStatus, updateTask } from './service';

// Notifications (and their mail, through the job queue) commit with each change: see notify().

const checklistRouter = router({
  add: permissionProcedure('tasks.edit')
    .input(ZChecklistAdd)
    .mutation(({ ctx, input }) =>
      editChecklist(ctx.db, ctx.scope, input.taskId, { kind: 'add', text: input.text }, ctx.meta),
    ),
  toggle: permissionProcedure('tasks.edit')
    .input(ZChecklistToggle)
    .mutation(({ ctx, input }) =>
      editChecklist(
        ctx.db,
        ctx.scope,
        input.taskId,
        { kind: 'toggle', itemId: input.itemId, done: input.done },
        ctx.meta,
      ),
    ),
  remove: permissionProcedure('tasks.edit')
    .input(ZChecklistRemove)
    .mutation(({ ctx, input }) =>
      editChecklist(ctx.db, ctx.scope, input.taskId, { kind: 'remove', itemId: input.itemId }, ctx.meta),
    ),
});

const commentsRouter = router({
  list: permissionProcedure('tasks.view')
    .input(ZTaskRef)
    .query(({ ctx, input }) => listComments(ctx.db, ctx.scope, input.taskId)),
  add: permissionProcedure('tasks.edit')
    .input(ZCommentAdd)
    .mutation(({ ctx, input }) => addComment(ctx.db, ctx.scope, input, ctx.meta)),
});

/** Files on a task; uploads go through POST /api/documents/upload?taskId=… (they stream). */
const attachmentsRouter = router({
  list: permissionProcedure('tasks.view')
    .input(ZTaskRef)
    .query(({ ctx, input }) => listAttachments(ctx.db, ctx.scope, input.taskId)),
  candidates: permissionProcedure('tasks.edit')
    .input(ZTaskAttachmentCandidates)
    .query(({ ctx, input }) => attachmentCandidates(ctx.db, ctx.scope, input)),
  attach: permissionProcedure('tasks.edit')
    .input(ZTaskAttachmentRef)
    .mutation(({ ctx, input }) => attachDocument(ctx.db, ctx.scope, input, ctx.meta)),
  detach: permissionProcedure('tasks.edit')
    .input(ZTaskAttachmentRef)
    .mutation(({ ctx, input }) => detachDocument(ctx.db, ctx.scope, input, ctx.meta)),
});

export const tasksRouter = router({
  list: permissionProcedure('tasks.view')
    .input(ZTaskListInput)
    .query(({ ctx, input }) => listTasks(ctx.db, ctx.scope, input)),
  get: permissionProcedure('tasks.view')
    .input(ZTaskRef)
    .query(({ ctx, input }) => getTask(ctx.db, ctx.scope, input.taskId)),
  /** Pickers: members, tags in use, and the firm's task settings. */
  options: permissionProcedure('tasks.view').query(({ ctx }) => taskOptions(ctx.db, ctx.scope)),
  projects: permissionProcedure('tasks.view')
    .input(z.object({ clientId: z.uuid('Choose a client from the list') }))
    .query(({ ctx, input }) => projectOptions(ctx.db, ctx.scope, input.clientId)),
  create: permissionProcedure('tasks.create')
    .input(ZTaskInput)
    .mutation(({ ctx, input }) => createTask(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('tasks.edit')
    .input(ZTaskUpdate)
    .mutation(({ ctx, input }) => updateTask(ctx.db, ctx.scope, input, ctx.meta)),
  setStatus: permissionProcedure('tasks.edit')
    .input(ZTaskSetStatus)
    .mutation(({ ctx, input }) => setTaskStatus(ctx.db, ctx.scope, input, ctx.meta)),
  delete: permissionProcedure('tasks.delete')
    .input(ZTaskRef)
    .mutation(({ ctx, input }) => deleteTask(ctx.db, ctx.scope, input.taskId, ctx.meta)),
  /** A card's place within its board column (drag, or Move up / Move down). */
  reorder: permissionProcedure('tasks.edit')
    .input(ZTaskReorder)
    .mutation(({ ctx, input }) => reorderTask(ctx.db, ctx.scope, input, ctx.meta)),
  bulk: permissionProcedure('tasks.edit')
    .input(ZTaskBulk)
    .mutation(({ ctx, input }) => bulkTasks(ctx.db, ctx.scope, input, ctx.meta)),
  checklist: checklistRouter,
  comments: commentsRouter,
  attachments: attachmentsRouter,
  /** The firm's task rule (orgs.settings), switched on /admin/settings/org. */
  settings: permissionProcedure('settings.view').query(
    async ({ ctx }) => (await firmOf(ctx.db, ctx.scope.orgId)).settings,
  ),
  updateSettings: permissionProcedure('settings.edit')
    .input(ZTaskSettings)
    .mutation(({ ctx, input }) => updateTaskSettings(ctx.db, ctx.scope, input, ctx.meta)),
});
