import { z } from 'zod';
import { CLIENT_STATUSES, CLIENT_TYPES } from './clients';
import { MAX_PAGE_SIZE } from './constants';
import { daysApart } from './days';
import { zId, zNumber, zString, zText } from './fields';
import { BILLING_REPORT_DIMENSIONS, type TBillingReportDimension } from './report-dimensions';
import { ZDay, ZTaskTag } from './tasks';

// The reports' inputs, shared by the screens (which keep them in the URL) and the procedures.

/** The longest period a report covers: two years and a day. */
export const MAX_REPORT_DAYS = 732;
export const REPORT_PAGE_SIZE = 50;
export const GRID_PAGE_SIZE = 100;
/** The compliance grid's widest span of periods (a monthly service over two years). */
export const MAX_GRID_PERIODS = 24;
/** How far ahead the team's load heat map looks. */
export const HEAT_MAP_DAYS = 28;

const ZPeriod = z
  .object({ from: ZDay, to: ZDay })
  .refine((p) => p.from <= p.to, { message: 'The period must end on or after its start', path: ['to'] })
  .refine((p) => p.from >= '1900-01-01' && p.to <= '2200-12-31', {
    message: 'Choose dates between the years 1900 and 2200',
    path: ['from'],
  })
  .refine((p) => daysApart(p.from, p.to) < MAX_REPORT_DAYS, {
    message: 'A report covers at most two years',
    path: ['to'],
  });

/** The filters every report takes; each is optional and narrows the clients (or members) it covers. */
export const ZReportFilters = z.object({
  groupId: zId().optional(),
  serviceId: zId().optional(),
  memberId: zId().optional(),
  clientType: z.enum(CLIENT_TYPES).optional(),
  clientStatus: z.enum(CLIENT_STATUSES).optional(),
  tag: ZTaskTag.optional(),
});
export type TReportFilters = z.infer<typeof ZReportFilters>;

const ZPaging = z.object({
  page: zNumber().int().min(1, 'Page must be 1 or more').max(100_000).default(1),
  pageSize: zNumber()
    .int()
    .min(1, 'Page size must be at least 1')
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}`)
    .default(REPORT_PAGE_SIZE),
  direction: z.enum(['asc', 'desc']).default('asc'),
});

export const CLIENT_SUMMARY_SORTS = [
  'name',
  'projects',
  'openTasks',
  'overdue',
  'onTimeShare',
  'pendingTodos',
  'minutes',
] as const;
export const ZClientSummary = z
  .object({
    ...ZPeriod.shape,
    ...ZReportFilters.shape,
    ...ZPaging.shape,
    sort: z.enum(CLIENT_SUMMARY_SORTS).default('name'),
  })
  .superRefine((v, ctx) => periodCheck(v, ctx));
export type TClientSummaryInput = z.input<typeof ZClientSummary>;

export const TEAM_SUMMARY_SORTS = [
  'name',
  'openTasks',
  'workAhead',
  'overdue',
  'completed',
  'minutes',
] as const;
export const ZTeamSummary = z
  .object({
    ...ZPeriod.shape,
    ...ZReportFilters.shape,
    ...ZPaging.shape,
    sort: z.enum(TEAM_SUMMARY_SORTS).default('name'),
  })
  .superRefine((v, ctx) => periodCheck(v, ctx));
export type TTeamSummaryInput = z.input<typeof ZTeamSummary>;

export const SERVICE_SUMMARY_SORTS = [
  'name',
  'engagements',
  'expected',
  'completed',
  'late',
  'notStarted',
] as const;
export const ZServicesSummary = z
  .object({
    ...ZPeriod.shape,
    ...ZReportFilters.shape,
    ...ZPaging.shape,
    sort: z.enum(SERVICE_SUMMARY_SORTS).default('name'),
  })
  .superRefine((v, ctx) => periodCheck(v, ctx));
export type TServicesSummaryInput = z.input<typeof ZServicesSummary>;

export * from './report-dimensions';

/** The billing summary's figures, and which of them a row of each kind can be given. */
export const BILLING_FIGURES = [
  'billed',
  'collected',
  'outstanding',
  'overdue',
  'wip',
  'standard',
  'realization',
] as const;
export type TBillingFigure = (typeof BILLING_FIGURES)[number];
/**
 * Money is paid against invoices, not services or projects, so collected and outstanding are by
 * client (and so partner) only; a month has no work in progress; a member's billed figure is the
 * share of the lines their time was billed at (realization), not invoices.
 */
export const BILLING_DIMENSION_FIGURES: Record<TBillingReportDimension, readonly TBillingFigure[]> = {
  month: ['billed', 'collected', 'standard', 'realization'],
  client: BILLING_FIGURES,
  partner: BILLING_FIGURES,
  service: ['billed', 'wip', 'standard', 'realization'],
  project: ['billed', 'wip', 'standard', 'realization'],
  member: ['wip', 'standard', 'realization'],
};
export const BILLING_SUMMARY_SORTS = [
  'name',
  'billed',
  'collected',
  'outstanding',
  'overdue',
  'wip',
  'standard',
  'realization',
] as const;
export const ZBillingSummary = z
  .object({
    ...ZPeriod.shape,
    ...ZReportFilters.shape,
    ...ZPaging.shape,
    by: z.enum(BILLING_REPORT_DIMENSIONS).default('client'),
    sort: z.enum(BILLING_SUMMARY_SORTS).default('name'),
  })
  .superRefine((v, ctx) => periodCheck(v, ctx));
export type TBillingSummaryInput = z.input<typeof ZBillingSummary>;

/** The clients engaged for a service with no project for a period of the range: work never started. */
export const ZNotStarted = z
  .object({
    ...ZPeriod.shape,
    ...ZReportFilters.shape,
    ...ZPaging.shape,
    serviceId: zId(),
  })
  .superRefine((v, ctx) => periodCheck(v, ctx));

export const ZComplianceGrid = z
  .object({
    ...ZPeriod.shape,
    ...ZReportFilters.shape,
    serviceId: zId(),
    page: ZPaging.shape.page,
    pageSize: zNumber()
      .int()
      .min(1)
      .max(GRID_PAGE_SIZE, `Page size must be at most ${GRID_PAGE_SIZE}`)
      .default(GRID_PAGE_SIZE),
  })
  .superRefine((v, ctx) => periodCheck(v, ctx));
export type TComplianceGridInput = z.input<typeof ZComplianceGrid>;

function periodCheck(v: { from: string; to: string }, ctx: z.RefinementCtx) {
  const r = ZPeriod.safeParse({ from: v.from, to: v.to });
  if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ ...issue, code: 'custom' } as never);
}

/** A compliance-grid cell, from the project of that client and period (or its absence). */
export const GRID_STATES = ['filed', 'in_progress', 'due', 'overdue', 'not_started', 'not_engaged'] as const;
export type TGridState = (typeof GRID_STATES)[number];
export const GRID_STATE_LABEL: Record<TGridState, string> = {
  filed: 'Filed',
  in_progress: 'In progress',
  due: 'Due',
  overdue: 'Overdue',
  not_started: 'Not started',
  not_engaged: 'Not engaged',
};

/**
 * A cell's state: a completed project is filed; an open one past its due date is overdue; one under
 * way (in progress or review) is in progress; a scheduled one is due. No project: not started when
 * the client was engaged for the service in that period, else not engaged.
 */
export function gridState(
  project: { status: string; dueDate: string | null } | null,
  engaged: boolean,
  today: string,
): TGridState {
  if (!project) return engaged ? 'not_started' : 'not_engaged';
  if (project.status === 'COMPLETED') return 'filed';
  if (project.dueDate && project.dueDate < today) return 'overdue';
  return project.status === 'SCHEDULED' ? 'due' : 'in_progress';
}

/** A share as a whole percentage, or null when there is nothing to share (0 of 0). */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/** The reports that export their rows (CSV and XLSX), at /api/reports/{report}/export.{csv|xlsx}. */
export const REPORT_EXPORTS = ['client', 'team', 'services', 'billing', 'requests'] as const;
export type TReportExport = (typeof REPORT_EXPORTS)[number];

/** The reports a member can save views of. */
export const REPORT_VIEW_KINDS = ['client', 'team', 'services', 'grid', 'billing'] as const;
export type TReportViewKind = (typeof REPORT_VIEW_KINDS)[number];
export const MAX_SAVED_VIEWS = 50;

/** A saved view: a name and the report's URL search (filters, sort, view), checked key by key. */
export const ZReportViewSave = z.object({
  report: z.enum(REPORT_VIEW_KINDS),
  name: zText({ max: 80, min: 1, label: 'Name', minMessage: 'Give the view a name' }),
  search: z
    .partialRecord(
      z.enum([
        'from',
        'to',
        'groupId',
        'serviceId',
        'memberId',
        'clientType',
        'clientStatus',
        'tag',
        'sort',
        'direction',
        'view',
        'by',
      ]),
      zString().max(64),
    )
    .default({}),
});
export const ZReportViewList = z.object({ report: z.enum(REPORT_VIEW_KINDS) });
export const ZReportViewRef = z.object({ viewId: zId() });
