import { z } from 'zod';
import { ZBudget } from './budgets';
import { zNumber, zString } from './fields';

// Project templates (/admin/templates/projects): the ordered task blueprints a service's projects
// start with.

const optionalText = (max: number, label: string) =>
  zString()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZTemplateInput = z.object({
  name: zString().trim().min(1, 'Enter the template name').max(120, 'Name must be at most 120 characters'),
  description: optionalText(2000, 'Description'),
  /** The hours budget its projects start with. */
  budgetMinutes: ZBudget,
});
export type TTemplateInput = z.input<typeof ZTemplateInput>;

export const ZTemplateRef = z.object({ templateId: z.uuid('Choose a template') });
export const ZTemplateUpdate = ZTemplateInput.extend({ templateId: z.uuid('Choose a template') });
export const ZTemplateListInput = z.object({ archived: z.boolean().default(false) });

/** Who a blueprint's task goes to: the engagement's assignees (holding a role), or one member. */
export const ASSIGNEE_KINDS = ['engagement', 'role', 'member'] as const;

const ZChecklist = z
  .array(
    zString()
      .trim()
      .min(1, 'A checklist item cannot be empty')
      .max(200, 'Checklist items are at most 200 characters'),
  )
  .max(50, 'At most 50 checklist items');
const ZTags = z
  .array(zString().trim().min(1, 'A tag cannot be empty').max(40, 'Tags are at most 40 characters'))
  .max(20, 'At most 20 tags');

export const ZBlueprintFields = z.object({
  title: zString().trim().min(1, 'Enter the task title').max(200, 'Title must be at most 200 characters'),
  description: optionalText(4000, 'Description'),
  dueOffsetDays: zNumber({ error: 'Enter the days from the end of the period' })
    .int('Days must be a whole number')
    .min(-366, 'The offset must be between -366 and 366 days')
    .max(366, 'The offset must be between -366 and 366 days'),
  assigneeKind: z.enum(ASSIGNEE_KINDS).default('engagement'),
  assigneeRoleId: z
    .uuid('Choose a role')
    .nullish()
    .transform((v) => v ?? null),
  assigneeMemberId: z
    .uuid('Choose a member')
    .nullish()
    .transform((v) => v ?? null),
  checklist: z
    .array(
      zString()
        .trim()
        .min(1, 'A checklist item cannot be empty')
        .max(200, 'Checklist items are at most 200 characters'),
    )
    .max(50, 'At most 50 checklist items')
    .default([]),
  forClient: z.boolean().default(false),
  tags: z
    .array(zString().trim().min(1, 'A tag cannot be empty').max(40, 'Tags are at most 40 characters'))
    .max(20, 'At most 20 tags')
    .default([]),
  /** The hours budget the task made from it starts with. */
  budgetMinutes: ZBudget,
  /** The template's stage the task belongs to (automations' "all tasks of a stage done"). */
  stageId: z
    .uuid('Choose a stage')
    .nullish()
    .transform((v) => v ?? null),
});

const assigneeChosen = (v: z.output<typeof ZBlueprintFields>) =>
  (v.assigneeKind !== 'role' || !!v.assigneeRoleId) && (v.assigneeKind !== 'member' || !!v.assigneeMemberId);
const assigneeMessage = { message: 'Choose the role or the member the task goes to', path: ['assigneeKind'] };

export const ZBlueprintInput = ZBlueprintFields.refine(assigneeChosen, assigneeMessage);
export type TBlueprintInput = z.input<typeof ZBlueprintInput>;
export type TBlueprintValues = z.output<typeof ZBlueprintInput>;

export const ZBlueprintCreate = ZBlueprintFields.extend({ templateId: z.uuid('Choose a template') }).refine(
  assigneeChosen,
  assigneeMessage,
);
export const ZBlueprintUpdate = ZBlueprintFields.extend({ blueprintId: z.uuid('Choose a task') }).refine(
  assigneeChosen,
  assigneeMessage,
);
export const ZBlueprintRef = z.object({ blueprintId: z.uuid('Choose a task') });
export const ZBlueprintMove = z.object({
  blueprintId: z.uuid('Choose a task'),
  direction: z.enum(['up', 'down']),
});

/** "5 days after the period ends", "On the last day of the period", "3 days before the period ends". */
export function offsetLabel(days: number): string {
  if (days === 0) return 'On the last day of the period';
  const n = Math.abs(days);
  return `${n} day${n === 1 ? '' : 's'} ${days < 0 ? 'before' : 'after'} the period ends`;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
const commaList = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/** The blueprint form: the checklist one item a line, tags separated by commas. */
export const ZBlueprintForm = ZBlueprintFields.extend({
  checklist: zString().transform(lines).pipe(ZChecklist),
  tags: zString().transform(commaList).pipe(ZTags),
}).refine(assigneeChosen, assigneeMessage);
export type TBlueprintFormInput = z.input<typeof ZBlueprintForm>;
export type TBlueprintFormValues = z.output<typeof ZBlueprintForm>;
