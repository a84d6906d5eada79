import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { todayIn, weekStartOf } from '../../../domain/days';
import { createFormatter, type TFormatter } from '../../../domain/format';
import { isLocked, type TLockSettings } from '../../../domain/timesheets';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs, projects, services, tasks, timesheetSettings, timesheetWeeks } from '../../db/schema';
import { visibleClient } from '../clients';

export type TLinks = {
  clientId: string | null;
  projectId: string | null;
  taskId: string | null;
  serviceId: string | null;
};

/**
 * The links an entry carries, checked and completed: a task brings its project and client, a
 * project its client and service. Another firm's record, or a client the caller may not see,
 * answers NOT_FOUND.
 */
export async function resolveLinks(tx: TExecutor, scope: TScope, input: TLinks): Promise<TLinks> {
  let { clientId, projectId, serviceId } = input;
  const { taskId } = input;
  if (taskId) {
    const [task] = await tx
      .select({ projectId: tasks.projectId, clientId: tasks.clientId })
      .from(tasks)
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, taskId)));
    if (!task) throw new TRPCError({ code: 'NOT_FOUND', message: 'Task not found' });
    projectId = task.projectId ?? projectId;
    clientId = task.clientId ?? clientId;
  }
  if (projectId) {
    const [project] = await tx
      .select({ clientId: projects.clientId, serviceId: projects.serviceId })
      .from(projects)
      .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, projectId)));
    if (!project) throw new TRPCError({ code: 'NOT_FOUND', message: 'Project not found' });
    if (clientId && clientId !== project.clientId)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The project belongs to another client' });
    clientId = project.clientId;
    serviceId = serviceId ?? project.serviceId;
  }
  if (clientId) await visibleClient(tx, scope, clientId);
  if (serviceId) {
    const [service] = await tx
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), eq(services.id, serviceId)));
    if (!service) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
  }
  return { clientId, projectId, taskId, serviceId };
}

/** Time for a client is billable unless the person says otherwise; the firm's own time is not. */
export function defaultBillable(links: TLinks): boolean {
  return links.clientId !== null;
}

export type TFirmClock = TLockSettings & { today: string; timeZone: string; format: TFormatter };

/** The firm's today (its time zone decides) and its lock. */
export async function firmClock(tx: TExecutor, orgId: string): Promise<TFirmClock> {
  const [row] = await tx
    .select({
      timeZone: orgs.timeZone,
      country: orgs.country,
      currency: orgs.currency,
      lockDate: timesheetSettings.lockDate,
      graceDays: timesheetSettings.graceDays,
    })
    .from(orgs)
    .leftJoin(timesheetSettings, eq(timesheetSettings.orgId, orgs.id))
    .where(eq(orgs.id, orgId));
  const timeZone = row?.timeZone ?? 'UTC';
  return {
    timeZone,
    today: todayIn(timeZone),
    // Refusals name the day as the firm writes it.
    format: createFormatter({ country: row?.country ?? null, timeZone, currency: row?.currency ?? 'USD' }),
    lockDate: row?.lockDate ?? null,
    graceDays: row?.graceDays ?? 0,
  };
}

export const lockedMessage = (day: string, format: TFormatter) =>
  `Time on ${format.date(day)} is locked: the firm has closed that period`;

/** Refuses a change to a locked day, unless the caller approves timesheets (and is then audited). */
export function assertOpenDay(day: string, clock: TFirmClock, mayOverride: boolean) {
  if (!mayOverride && isLocked(day, clock, clock.today))
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: lockedMessage(day, clock.format) });
}

/** The week's state for a member (open when never submitted). */
export async function weekStatus(tx: TExecutor, orgId: string, memberId: string, day: string, lock = false) {
  const q = tx
    .select({ status: timesheetWeeks.status, comment: timesheetWeeks.comment })
    .from(timesheetWeeks)
    .where(
      and(
        eq(timesheetWeeks.orgId, orgId),
        eq(timesheetWeeks.memberId, memberId),
        eq(timesheetWeeks.weekStart, weekStartOf(day)),
      ),
    );
  const [row] = lock ? await q.for('update') : await q;
  return row ?? { status: 'open' as const, comment: null };
}

/** A submitted or approved week is closed to its member until an approver sends it back. */
export function assertWeekOpen(status: string) {
  if (status === 'submitted')
    throw new TRPCError({
      code: 'PRECONDITION_FAILED',
      message: 'This week has been submitted: it can change again if it is sent back',
    });
  if (status === 'approved')
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'This week has been approved' });
}
