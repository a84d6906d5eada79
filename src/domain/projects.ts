import { z } from 'zod';
import { ZBudget } from './budgets';
import { ZIsoDate } from './engagements';
import { zNumber, zString } from './fields';
import { PROJECT_SORTS, PROJECT_STATUS_FILTERS } from './projects-constants';
import { STORED_STATUSES } from './status';

export { PROJECT_SORTS, PROJECT_STATUS_FILTERS } from './projects-constants';

// Projects (/projects): a piece of work for a client, usually one period of an engagement.

export const PROJECT_VIEWS = ['list', 'board'] as const;

const ZOptionalDate = zString()
  .trim()
  .refine((v) => v === '' || ZIsoDate.safeParse(v).success, 'Enter a date as YYYY-MM-DD')
  .nullish()
  .transform((v) => (v ? v : null));

export const ZProjectListInput = z
  .object({
    page: zNumber().int().min(1, 'Page must be 1 or more').default(1),
    pageSize: zNumber().int().min(1).max(200, 'Page size must be at most 200').default(25),
    sort: z.enum(PROJECT_SORTS).default('dueDate'),
    direction: z.enum(['asc', 'desc']).default('asc'),
    search: zString().trim().max(200, 'Search must be at most 200 characters').optional(),
    status: z.enum(PROJECT_STATUS_FILTERS).optional(),
    /** Without a status filter the list is open work: completed projects only on request. */
    includeCompleted: z.boolean().default(false),
    clientId: z.uuid('Choose a client').optional(),
    serviceId: z.uuid('Choose a service').optional(),
    memberId: z.uuid('Choose a member').optional(),
    periodKey: zString().trim().max(20, 'A period is at most 20 characters').optional(),
    dueFrom: ZIsoDate.optional(),
    dueTo: ZIsoDate.optional(),
    archived: z.boolean().default(false),
  })
  .refine((v) => !v.dueFrom || !v.dueTo || v.dueFrom <= v.dueTo, {
    message: 'The due range must end on or after its start',
    path: ['dueTo'],
  });
export type TProjectListInput = z.input<typeof ZProjectListInput>;
export type TProjectListQuery = z.output<typeof ZProjectListInput>;

export const ZProjectBoardInput = z.object({
  clientId: z.uuid().optional(),
  serviceId: z.uuid().optional(),
  memberId: z.uuid().optional(),
  /** Cards per column: the board shows the nearest due first. */
  limit: zNumber().int().min(1).max(200).default(50),
});

export const ZProjectRef = z.object({ projectId: z.uuid('Choose a project') });

const datesInOrder = (v: { startDate: string | null; dueDate: string | null }) =>
  !v.startDate || !v.dueDate || v.dueDate >= v.startDate;
const datesMessage = { message: 'The due date cannot be before the start date', path: ['dueDate'] };

export const ZProjectFields = z.object({
  name: zString().trim().min(1, 'Enter the project name').max(200, 'Name must be at most 200 characters'),
  description: zString()
    .trim()
    .max(4000, 'Description must be at most 4000 characters')
    .nullish()
    .transform((v) => (v ? v : null)),
  startDate: ZOptionalDate,
  dueDate: ZOptionalDate,
  ownerId: z
    .uuid('Choose the owner from the list')
    .nullish()
    .transform((v) => v ?? null),
  memberIds: z.array(z.uuid('Choose members from the list')).max(50, 'At most 50 members').default([]),
  /** Hours budget; a new project left blank takes its template's. */
  budgetMinutes: ZBudget,
});

export const ZProjectCreate = ZProjectFields.extend({
  clientId: z.uuid('Choose a client'),
  serviceId: z
    .uuid('Choose a service')
    .nullish()
    .transform((v) => v ?? null),
  templateId: z
    .uuid('Choose a template')
    .nullish()
    .transform((v) => v ?? null),
}).refine(datesInOrder, datesMessage);
export type TProjectCreateInput = z.input<typeof ZProjectCreate>;
export type TProjectCreateValues = z.output<typeof ZProjectCreate>;

export const ZProjectUpdate = ZProjectFields.omit({ memberIds: true })
  .extend({ projectId: z.uuid('Choose a project') })
  .refine(datesInOrder, datesMessage);

export const ZProjectStatus = z.object({
  projectId: z.uuid('Choose a project'),
  status: z.enum(STORED_STATUSES, { error: 'Choose a status' }),
});
export const ZProjectMember = z.object({
  projectId: z.uuid('Choose a project'),
  memberId: z.uuid('Choose a member'),
});

export const ZClientSearch = z.object({
  search: zString().trim().max(100, 'Search must be at most 100 characters').optional(),
  clientId: z.uuid().optional(),
});
