import { z } from 'zod';
import { ZBudget } from './budgets';
import { MAX_PAGE_SIZE } from './constants';
import { isIsoDate } from './days';
import { zNumber, zString } from './fields';
import { STORED_STATUSES, type TDisplayStatus, type TStoredStatus } from './status';
import {
  TASK_PRIORITIES,
  TASK_SORTS,
  TASK_STATUS_FILTERS,
  TASK_VIEWS,
  TASKS_PAGE_SIZE,
} from './tasks-constants';

export {
  isTaskTag,
  PRIORITY_LABELS,
  TASK_PRIORITIES,
  TASK_SORTS,
  TASK_STATUS_FILTERS,
  TASK_VIEWS,
  TASKS_PAGE_SIZE,
  type TTaskPriority,
  type TTaskSort,
  type TTaskStatusFilter,
  type TTaskView,
} from './tasks-constants';

// Tasks (/tasks, /tasks/filters/{tag}, /clients/{id}/tasks, /clients/{id}/client-tasks): the same
// schemas check the forms and the procedures.

export const MAX_TASK_TAGS = 20;
export const MAX_ASSIGNEES = 20;
export const MAX_CHECKLIST = 100;
export const MAX_TASK_BULK = 500;
/**
 * Lists count matches exactly up to this many; beyond it the total is the planner's estimate
 * ("about 31,000"): counting half a million rows costs more than the page itself.
 */
export const TASK_COUNT_CAP = 1_000;

/** Firm setting (orgs.settings key): completing a task needs every checklist item done. */
export const REQUIRE_CHECKLIST_SETTING = 'requireChecklistToComplete';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day, 'YYYY-MM-DD', that exists. */
export const ZDay = zString()
  .regex(DAY, 'Use a date like 2026-03-31')
  .refine(isIsoDate, 'This date does not exist');

export const ZTaskTag = zString()
  .trim()
  .toLowerCase()
  .min(1, 'A tag cannot be blank')
  .max(40, 'A tag must be at most 40 characters')
  .regex(/^[^/?#\s][^/?#]*$/, 'A tag cannot contain / ? or #'); // as isTaskTag (tasks-constants.ts)

const ZTitle = zString()
  .trim()
  .min(1, 'Enter a title for the task')
  .max(300, 'A task title must be at most 300 characters');

const ZDescription = zString()
  .trim()
  .max(10_000, 'The description must be at most 10,000 characters')
  .nullish()
  .transform((v) => (v ? v : null));

const ZOptionalId = (message: string) =>
  z
    .uuid(message)
    .nullish()
    .transform((v) => v ?? null);

const ZTags = z
  .array(ZTaskTag)
  .max(MAX_TASK_TAGS, `At most ${MAX_TASK_TAGS} tags`)
  .transform((tags) => [...new Set(tags)]);

const ZAssigneeIds = z
  .array(z.uuid('Choose assignees from the list'))
  .max(MAX_ASSIGNEES, `At most ${MAX_ASSIGNEES} assignees`)
  .transform((ids) => [...new Set(ids)]);

export const ZChecklistText = zString()
  .trim()
  .min(1, 'Enter the checklist item')
  .max(500, 'A checklist item must be at most 500 characters');

export const ZTaskInput = z.object({
  title: ZTitle,
  description: ZDescription,
  clientId: ZOptionalId('Choose a client from the list'),
  /** When set, the task belongs to the project's client (clientId is taken from the project). */
  projectId: ZOptionalId('Choose a project from the list'),
  status: z.enum(STORED_STATUSES, 'Choose a status').default('SCHEDULED'),
  priority: z.enum(TASK_PRIORITIES, 'Choose a priority').default('medium'),
  dueDate: ZDay.nullish().transform((v) => v ?? null),
  assigneeIds: ZAssigneeIds.default([]),
  reviewerId: ZOptionalId('Choose a reviewer from the list'),
  tags: ZTags.default([]),
  checklist: z
    .array(z.object({ text: ZChecklistText, done: z.boolean().default(false) }))
    .max(MAX_CHECKLIST, `At most ${MAX_CHECKLIST} checklist items`)
    .default([]),
  /** The client's own to-do (shown in the portal); needs a client. */
  forClient: z.boolean().default(false),
  budgetMinutes: ZBudget,
});
export type TTaskFormInput = z.input<typeof ZTaskInput>;
export type TTaskInput = z.output<typeof ZTaskInput>;

export const ZTaskRef = z.object({ taskId: z.uuid('This task link is not valid') });

/** Inline edits from the drawer: only the fields sent change. Status has its own call. */
export const ZTaskUpdate = z.object({
  taskId: z.uuid('This task link is not valid'),
  patch: z
    .object({
      title: ZTitle,
      description: ZDescription,
      clientId: ZOptionalId('Choose a client from the list'),
      projectId: ZOptionalId('Choose a project from the list'),
      priority: z.enum(TASK_PRIORITIES, 'Choose a priority'),
      dueDate: ZDay.nullable(),
      assigneeIds: ZAssigneeIds,
      reviewerId: ZOptionalId('Choose a reviewer from the list'),
      tags: ZTags,
      forClient: z.boolean(),
      budgetMinutes: ZBudget,
    })
    .partial()
    .refine((p) => Object.keys(p).length > 0, 'Nothing to change'),
});
export type TTaskUpdate = z.output<typeof ZTaskUpdate>;

export const ZTaskSetStatus = z.object({
  taskId: z.uuid('This task link is not valid'),
  status: z.enum(STORED_STATUSES, 'Choose a status'),
});

export const ZChecklistAdd = z.object({
  taskId: z.uuid('This task link is not valid'),
  text: ZChecklistText,
});
export const ZChecklistToggle = z.object({
  taskId: z.uuid('This task link is not valid'),
  itemId: zString().min(1).max(64),
  done: z.boolean(),
});
export const ZChecklistRemove = z.object({
  taskId: z.uuid('This task link is not valid'),
  itemId: zString().min(1).max(64),
});

export const ZCommentAdd = z.object({
  taskId: z.uuid('This task link is not valid'),
  body: zString()
    .trim()
    .min(1, 'Write a comment first')
    .max(5000, 'A comment must be at most 5,000 characters'),
  /** The members picked with @; only those still named in the body are notified. */
  mentions: z
    .array(z.uuid('Mention members from the list'))
    .max(50, 'At most 50 mentions')
    .default([])
    .transform((ids) => [...new Set(ids)]),
});
export type TCommentAdd = z.output<typeof ZCommentAdd>;

export const ZTaskBulk = z.object({
  ids: z
    .array(z.uuid('Choose tasks from the list'))
    .min(1, 'Choose at least one task')
    .max(MAX_TASK_BULK, `Choose at most ${MAX_TASK_BULK} tasks at a time`),
  action: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('setStatus'), status: z.enum(STORED_STATUSES, 'Choose a status') }),
    z.object({ kind: z.literal('assign'), memberId: z.uuid('Choose a member') }),
    z.object({ kind: z.literal('unassign'), memberId: z.uuid('Choose a member') }),
  ]),
});
export type TTaskBulk = z.output<typeof ZTaskBulk>;

/** An opaque keyset cursor: the last row's sort value (null for a task without a due date) and id. */
export const ZTaskCursor = zString()
  .max(600, 'This page link is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'This page link is not valid');

export const ZTaskListInput = z
  .object({
    view: z.enum(TASK_VIEWS, 'Choose mine, team or all').default('all'),
    status: z.array(z.enum(TASK_STATUS_FILTERS, 'Not a task status')).max(5).optional(),
    /**
     * Without a status filter the list is open work (overdue first, then due soonest): completed
     * tasks only on request. A status filter names exactly what to show and ignores this.
     */
    includeCompleted: z.boolean().default(false),
    priority: z.array(z.enum(TASK_PRIORITIES, 'Not a priority')).max(4).optional(),
    assigneeId: z.uuid('Choose a member from the list').optional(),
    reviewerId: z.uuid('Choose a member from the list').optional(),
    clientId: z.uuid('Choose a client from the list').optional(),
    projectId: z.uuid('Choose a project from the list').optional(),
    forClient: z.boolean().optional(),
    tag: ZTaskTag.optional(),
    dueFrom: ZDay.optional(),
    dueTo: ZDay.optional(),
    search: zString().trim().max(200, 'Search must be at most 200 characters').optional(),
    sort: z
      .object({
        field: z.enum(TASK_SORTS, 'Not a sort field').default('dueDate'),
        dir: z.enum(['asc', 'desc']).default('asc'),
      })
      .default({ field: 'dueDate', dir: 'asc' }),
    page: zNumber().int().min(1, 'Page must be 1 or more').default(1),
    pageSize: zNumber()
      .int()
      .min(1, 'Page size must be at least 1')
      .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}`)
      .default(TASKS_PAGE_SIZE),
    /** The page after this cursor (keyset, for deep pages); `page` is then ignored. */
    cursor: ZTaskCursor.optional(),
  })
  .refine((v) => !v.dueFrom || !v.dueTo || v.dueFrom <= v.dueTo, {
    message: 'The "due from" date must be on or before the "due to" date',
    path: ['dueTo'],
  });
export type TTaskListInput = z.input<typeof ZTaskListInput>;
export type TTaskListQuery = z.output<typeof ZTaskListInput>;

export const ZTaskSettings = z.object({ requireChecklistToComplete: z.boolean() });
export type TTaskSettings = z.infer<typeof ZTaskSettings>;

export function taskSettingsOf(settings: Record<string, unknown> | null | undefined): TTaskSettings {
  return { requireChecklistToComplete: settings?.[REQUIRE_CHECKLIST_SETTING] === true };
}

/** OVERDUE: not completed and due before today in the firm's time zone (a task due today is not). */
export function isOverdue(
  task: { dueDate: string | null; completedDate: Date | string | null },
  today: string,
): boolean {
  return !task.completedDate && task.dueDate !== null && task.dueDate < today;
}

export function taskDisplayStatus(
  task: { status: string; dueDate: string | null; completedDate: Date | string | null },
  today: string,
): TDisplayStatus {
  if (isOverdue(task, today)) return 'OVERDUE';
  return (STORED_STATUSES as readonly string[]).includes(task.status)
    ? (task.status as TStoredStatus)
    : 'UNKNOWN';
}

/** The checklist rule: null when the task may be completed, otherwise the message to show. */
export function checklistBlocksCompletion(
  checklist: readonly { done: boolean }[],
  settings: TTaskSettings,
): string | null {
  if (!settings.requireChecklistToComplete) return null;
  const open = checklist.filter((i) => !i.done).length;
  if (open === 0) return null;
  return `Finish the checklist before completing this task: ${open} of ${checklist.length} item${
    checklist.length === 1 ? ' is' : 's are'
  } still open`;
}

/** completedDate follows the status: set on reaching COMPLETED, cleared on leaving it. */
export function completedDateFor(
  from: { status: string; completedDate: Date | null },
  to: TStoredStatus,
  now: Date,
): Date | null {
  if (to !== 'COMPLETED') return null;
  return from.status === 'COMPLETED' && from.completedDate ? from.completedDate : now;
}

/** '@First Last' as the mention picker writes it into a comment. */
export function mentionToken(name: string): string {
  return `@${name}`;
}

/** Task attachments: a document of the task's client (or of the firm vault for an internal task). */
export const TASK_ATTACHMENTS_FOLDER = 'Attachments';
export const MAX_TASK_ATTACHMENTS = 200;
export const ZTaskAttachmentRef = z.object({
  taskId: z.uuid('This task link is not valid'),
  documentId: z.uuid('Choose a file from the list'),
});
export type TTaskAttachmentRef = z.output<typeof ZTaskAttachmentRef>;
export const ZTaskAttachmentCandidates = z.object({
  taskId: z.uuid('This task link is not valid'),
  search: zString().trim().max(200, 'Search for at most 200 characters').default(''),
});
export type TTaskAttachmentCandidates = z.output<typeof ZTaskAttachmentCandidates>;

/** Board order within a column: the column's cards (at most a board page) in their new order. */
export const MAX_REORDER_IDS = 200;
export const ZTaskReorder = z
  .object({
    taskId: z.uuid('This task link is not valid'),
    order: z
      .array(z.uuid('Choose tasks from the board'))
      .min(2, 'Moving a card needs another card in its column')
      .max(MAX_REORDER_IDS, `A column can be reordered with at most ${MAX_REORDER_IDS} cards`),
  })
  .refine((v) => v.order.includes(v.taskId), {
    message: 'The moved task is not in the column',
    path: ['order'],
  })
  .refine((v) => new Set(v.order).size === v.order.length, {
    message: 'A task appears twice in the column',
    path: ['order'],
  });
export type TTaskReorder = z.output<typeof ZTaskReorder>;

/** Gap between renumbered positions: room for many moves before the midpoints run out of bits. */
export const POSITION_STEP = 1024;

/**
 * The position that puts a card between its new neighbours (ordered by position, then id), or null
 * when they tie (or sit too close for a midpoint) and the column must be renumbered.
 */
export function positionBetween(prev: number | null, next: number | null): number | null {
  if (prev === null && next === null) return null;
  if (prev === null) return (next as number) - POSITION_STEP;
  if (next === null) return prev + POSITION_STEP;
  if (!(prev < next)) return null;
  const mid = prev + (next - prev) / 2;
  return mid > prev && mid < next ? mid : null;
}

/** The column's order after moving one card one place up (-1) or down (+1); null at the edge. */
export function moveInOrder(order: string[], taskId: string, step: -1 | 1): string[] | null {
  const i = order.indexOf(taskId);
  const j = i + step;
  if (i < 0 || j < 0 || j >= order.length) return null;
  const next = [...order];
  next[i] = order[j] as string;
  next[j] = taskId;
  return next;
}

/** The column's order after dropping a card onto another one: it takes that card's place. */
export function dropInOrder(order: string[], taskId: string, targetId: string): string[] | null {
  const from = order.indexOf(taskId);
  const to = order.indexOf(targetId);
  if (from < 0 || to < 0 || from === to) return null;
  const next = order.filter((id) => id !== taskId);
  next.splice(to, 0, taskId);
  return next;
}
