import { TRPCError } from '@trpc/server';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { addDays, todayIn } from '../../../domain/days';
import {
  chaseStepDay,
  chaseStepLabel,
  chaseStepOn,
  DEFAULT_CHASE,
  DEFAULT_FLAG_AFTER,
  describeChase,
  MAX_BEFORE_DAYS,
  nextChaseDay,
  type TChaseSchedule,
  type TChaseSettings,
  type ZRequestChaseUpdate,
} from '../../../domain/requests/chase';
import { AWAITING_CLIENT } from '../../../domain/requests/constants';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  orgs,
  projects,
  reminderDeliveries,
  reminders,
  requestItems,
  requestReminderSteps,
  requestSettings,
  requests,
} from '../../db/schema';
import { every, registerJob } from '../../jobs/registry';
import { notify } from '../notifications';
import { queueSend } from '../reminders';
import { firmFormatter } from '../settings';
import { audit, diff } from '../system-log';
import { type TRequestRow, visibleRequest } from './access';
import { requestLink } from './mail';

// Chasing (issue 36, item 5). Each request carries its own schedule, copied from the firm's default
// when it is made. An hourly job mails each due step once: the step's row in request_reminder_steps
// is written first and its key refuses a second, whatever the number of instances. A step is sent
// as a client reminder of the reminders feature (mailed to the request's recipients only, retried,
// and kept in the client's delivery history). After the firm's number of reminders with no answer
// in between, the request needs attention and its sender hears of it once.

export const REQUEST_CHASE = 'requests.chase';
/** Requests one pass reads at a time per firm; a firm's pass walks them all, a batch at a time. */
const BATCH = 500;

// The firm's default -----------------------------------------------------------------------------

export async function chaseSettingsOf(db: TExecutor, orgId: string): Promise<TChaseSettings> {
  const [row] = await db.select().from(requestSettings).where(eq(requestSettings.orgId, orgId)).limit(1);
  if (!row) return { schedule: { ...DEFAULT_CHASE }, flagAfter: DEFAULT_FLAG_AFTER };
  return {
    schedule: { beforeDays: row.chaseBeforeDays, onDue: row.chaseOnDue, everyDays: row.chaseEveryDays },
    flagAfter: row.flagAfter,
  };
}

export async function getChaseSettings(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  const settings = await chaseSettingsOf(db, scope.orgId);
  return { ...settings, summary: describeChase(settings.schedule) };
}

export async function updateChaseSettings(db: TDb, scope: TScope, input: TChaseSettings, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    await tx
      .select({ orgId: requestSettings.orgId })
      .from(requestSettings)
      .where(eq(requestSettings.orgId, scope.orgId))
      .for('update');
    const before = await chaseSettingsOf(tx, scope.orgId);
    const changes = diff(flat(before), flat(input));
    if (!changes) return { changed: false };
    const values = {
      chaseBeforeDays: input.schedule.beforeDays,
      chaseOnDue: input.schedule.onDue,
      chaseEveryDays: input.schedule.everyDays,
      flagAfter: input.flagAfter,
    };
    await tx
      .insert(requestSettings)
      .values({ orgId: scope.orgId, ...values })
      .onConflictDoUpdate({ target: requestSettings.orgId, set: { ...values, updatedAt: new Date() } });
    await audit(tx, actorOf(scope, meta), {
      action: 'request.chase_settings',
      recordType: 'org',
      recordId: scope.orgId,
      summary: `Requests are now chased ${describeChase(input.schedule).toLowerCase()}, and need attention after ${input.flagAfter} unanswered reminder${input.flagAfter === 1 ? '' : 's'}`,
      changes,
    });
    return { changed: true };
  });
}

const flat = (s: TChaseSettings) => ({
  beforeDays: s.schedule.beforeDays.join(', '),
  onDue: s.schedule.onDue,
  everyDays: s.schedule.everyDays,
  flagAfter: s.flagAfter,
});

/** The schedule columns a new request gets: the one the sender chose, or the firm's default. */
export async function chaseValues(tx: TExecutor, orgId: string, chosen: TChaseSchedule | undefined) {
  const schedule = chosen ?? (await chaseSettingsOf(tx, orgId)).schedule;
  return {
    chaseBeforeDays: schedule.beforeDays,
    chaseOnDue: schedule.onDue,
    chaseEveryDays: schedule.everyDays,
  };
}

const scheduleOf = (r: Pick<TRequestRow, 'chaseBeforeDays' | 'chaseOnDue' | 'chaseEveryDays'>) => ({
  beforeDays: r.chaseBeforeDays,
  onDue: r.chaseOnDue,
  everyDays: r.chaseEveryDays,
});

// A request's own schedule -----------------------------------------------------------------------

const CLOSED = ['complete', 'cancelled'];

export async function updateRequestChase(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZRequestChaseUpdate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const request = await visibleRequest(tx, scope, input.requestId, true);
    if (CLOSED.includes(request.status)) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'This request is closed: there is nobody to remind',
      });
    }
    const before = { schedule: describeChase(scheduleOf(request)), paused: request.chasePaused };
    const after = { schedule: describeChase(input.schedule), paused: input.paused };
    const changes = diff(before, after);
    if (!changes) return { changed: false };
    await tx
      .update(requests)
      .set({
        chaseBeforeDays: input.schedule.beforeDays,
        chaseOnDue: input.schedule.onDue,
        chaseEveryDays: input.schedule.everyDays,
        chasePaused: input.paused,
        updatedAt: new Date(),
      })
      .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, request.id)));
    const what =
      before.paused !== after.paused && before.schedule === after.schedule
        ? input.paused
          ? 'Paused the reminders of'
          : 'Resumed the reminders of'
        : 'Changed the reminders of';
    await audit(tx, actorOf(scope, meta), {
      action: 'request.chase',
      recordType: 'request',
      recordId: request.id,
      summary: `${what} the request “${request.title}”: ${after.schedule.toLowerCase()}${input.paused ? ' (paused)' : ''}`,
      changes,
    });
    return { changed: true };
  });
}

/** What the request's page shows: the schedule, the reminders sent (with their delivery) and the next. */
export async function requestChase(db: TExecutor, orgId: string, request: TRequestRow, today: string) {
  const schedule = scheduleOf(request);
  const sent = await db
    .select({
      step: requestReminderSteps.step,
      sentAt: requestReminderSteps.sentAt,
      reminderId: requestReminderSteps.reminderId,
      reminderStatus: reminders.status,
      lastError: reminders.lastError,
      delivered: sql<number>`(select count(*)::int from ${reminderDeliveries} d where d.org_id = ${requestReminderSteps.orgId} and d.reminder_id = ${requestReminderSteps.reminderId} and d.status = 'sent')`,
    })
    .from(requestReminderSteps)
    .leftJoin(
      reminders,
      and(eq(reminders.orgId, requestReminderSteps.orgId), eq(reminders.id, requestReminderSteps.reminderId)),
    )
    .where(and(eq(requestReminderSteps.orgId, orgId), eq(requestReminderSteps.requestId, request.id)))
    .orderBy(asc(requestReminderSteps.sentAt));
  const [{ timeZone } = { timeZone: 'UTC' }] = await db
    .select({ timeZone: orgs.timeZone })
    .from(orgs)
    .where(eq(orgs.id, orgId));
  const waiting = (AWAITING_CLIENT as readonly string[]).includes(request.status);
  const sentDay = request.sentAt ? todayIn(timeZone, request.sentAt) : today;
  const next =
    waiting && !request.chasePaused
      ? nextChaseDay(schedule, request.dueDate, sentDay, today, new Set(sent.map((s) => s.step)))
      : null;
  return {
    schedule,
    summary: describeChase(schedule),
    paused: request.chasePaused,
    /** Still waiting on the client after the firm's number of unanswered reminders. */
    needsAttentionAt: waiting ? request.needsAttentionAt : null,
    sent: sent.map((s) => ({
      step: s.step,
      label: chaseStepLabel(s.step),
      day: chaseStepDay(schedule, request.dueDate, s.step),
      sentAt: s.sentAt,
      reminderId: s.reminderId,
      // Queued until the reminders feature mails it; failed when every attempt did.
      delivery: s.reminderStatus === 'failed' ? 'failed' : s.delivered > 0 ? 'sent' : 'queued',
      error: s.reminderStatus === 'failed' ? s.lastError : null,
    })),
    nextDay: next,
  };
}

// The job ----------------------------------------------------------------------------------------

function chaseText(
  request: { title: string; dueDate: string; clientName: string },
  step: string,
  link: string,
  firmName: string,
  dueText: string,
) {
  const title =
    step === 'due'
      ? `Due today: ${request.title}`
      : step.startsWith('before:')
        ? `Reminder: ${request.title} is due on ${dueText}`
        : `Overdue: ${request.title} (due ${dueText})`;
  const lines = [
    `Dear ${request.clientName},`,
    step === 'due'
      ? `${firmName} is still waiting for what “${request.title}” asks for: it is due today.`
      : step.startsWith('before:')
        ? `A reminder that ${firmName} asked for “${request.title}” by ${dueText}.`
        : `${firmName} is still waiting for what “${request.title}” asks for: it was due on ${dueText}.`,
    `Answer and upload here (what you type is saved as you go): ${link}`,
    'If you have sent everything already, thank you: please submit the request so we stop reminding you.',
  ];
  return { title: title.slice(0, 200), message: lines.join('\n\n') };
}

/** Who is told a request needs attention: its sender and, for a project's request, the project's owner. */
async function attentionAudience(tx: TExecutor, request: TRequestRow): Promise<string[]> {
  const people = new Set<string>(request.createdBy ? [request.createdBy] : []);
  if (request.projectId) {
    const [project] = await tx
      .select({ ownerId: projects.ownerId })
      .from(projects)
      .where(and(eq(projects.orgId, request.orgId), eq(projects.id, request.projectId)));
    if (project?.ownerId) people.add(project.ownerId);
  }
  return [...people];
}

type TFirm = { orgId: string; name: string; timeZone: string };
type TCandidateRow = Pick<
  TRequestRow,
  'id' | 'dueDate' | 'sentAt' | 'chaseBeforeDays' | 'chaseOnDue' | 'chaseEveryDays'
> & { clientName: string };

async function chaseOne(
  db: TDb,
  firm: TFirm,
  candidate: { id: string; clientName: string; step: string },
  flagAfter: number,
  publicUrl: string,
  dueText: (d: string) => string,
) {
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(requests)
      .where(and(eq(requests.orgId, firm.orgId), eq(requests.id, candidate.id)))
      .for('update');
    // Submitted, closed or paused since the list was read: no reminder, and the step stays free.
    if (!request || request.chasePaused || !(AWAITING_CLIENT as readonly string[]).includes(request.status)) {
      return false;
    }
    const [taken] = await tx
      .insert(requestReminderSteps)
      .values({ orgId: firm.orgId, requestId: request.id, step: candidate.step })
      .onConflictDoNothing()
      .returning({ step: requestReminderSteps.step });
    if (!taken) return false;
    const text = chaseText(
      { title: request.title, dueDate: request.dueDate, clientName: candidate.clientName },
      candidate.step,
      requestLink({ publicUrl }, request.clientId, request.id),
      firm.name,
      dueText(request.dueDate),
    );
    const now = new Date();
    const [reminder] = await tx
      .insert(reminders)
      .values({
        orgId: firm.orgId,
        type: 'client',
        title: text.title,
        message: text.message,
        clientId: request.clientId,
        requestId: request.id,
        remindAt: now,
        anchorAt: now,
        recurrence: 'none',
        channels: ['email'],
        status: 'scheduled',
        // Its sender hears of it if every attempt to mail it fails.
        createdBy: request.createdBy,
      })
      .returning({ id: reminders.id, orgId: reminders.orgId, remindAt: reminders.remindAt });
    if (!reminder) throw new Error('reminder not created');
    await tx
      .update(requestReminderSteps)
      .set({ reminderId: reminder.id })
      .where(
        and(
          eq(requestReminderSteps.orgId, firm.orgId),
          eq(requestReminderSteps.requestId, request.id),
          eq(requestReminderSteps.step, candidate.step),
        ),
      );
    await queueSend(tx, reminder);
    await audit(
      tx,
      { kind: 'system', orgId: firm.orgId },
      {
        action: 'request.reminder',
        recordType: 'request',
        recordId: request.id,
        summary: `Reminded ${candidate.clientName} of the request “${request.title}” (${chaseStepLabel(candidate.step).toLowerCase()})`,
      },
    );
    if (request.needsAttentionAt) return true;
    // Unanswered: reminders sent since the client last answered anything (or ever, if never).
    const [unanswered] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(requestReminderSteps)
      .where(
        and(
          eq(requestReminderSteps.orgId, firm.orgId),
          eq(requestReminderSteps.requestId, request.id),
          sql`${requestReminderSteps.sentAt} > (select coalesce(max(${requestItems.answeredAt}), '-infinity'::timestamptz) from ${requestItems} where ${requestItems.orgId} = ${firm.orgId} and ${requestItems.requestId} = ${request.id})`,
        ),
      );
    if ((unanswered?.n ?? 0) < flagAfter) return true;
    const [flagged] = await tx
      .update(requests)
      .set({ needsAttentionAt: now })
      .where(
        and(eq(requests.orgId, firm.orgId), eq(requests.id, request.id), isNull(requests.needsAttentionAt)),
      )
      .returning({ id: requests.id });
    if (!flagged) return true;
    await audit(
      tx,
      { kind: 'system', orgId: firm.orgId },
      {
        action: 'request.attention',
        recordType: 'request',
        recordId: request.id,
        summary: `The request “${request.title}” needs attention: ${unanswered?.n} reminders to ${candidate.clientName} went unanswered`,
      },
    );
    await notify(tx, {
      orgId: firm.orgId,
      memberIds: await attentionAudience(tx, request),
      kind: 'request.attention',
      title: `No answer from ${candidate.clientName.slice(0, 60)} to “${request.title.slice(0, 100)}” after ${unanswered?.n} reminders`,
      link: `/requests/${request.id}`,
    });
    return true;
  });
}

async function chaseFirm(db: TDb, firm: TFirm, publicUrl: string, now: Date) {
  const today = todayIn(firm.timeZone, now);
  const { flagAfter } = await chaseSettingsOf(db, firm.orgId);
  const format = await firmFormatter(db, firm.orgId);
  let queued = 0;
  let after: { dueDate: string; id: string } | null = null;
  for (;;) {
    const page: TCandidateRow[] = await db
      .select({
        id: requests.id,
        dueDate: requests.dueDate,
        sentAt: requests.sentAt,
        clientName: clients.name,
        chaseBeforeDays: requests.chaseBeforeDays,
        chaseOnDue: requests.chaseOnDue,
        chaseEveryDays: requests.chaseEveryDays,
      })
      .from(requests)
      .innerJoin(clients, and(eq(clients.orgId, requests.orgId), eq(clients.id, requests.clientId)))
      .where(
        and(
          eq(requests.orgId, firm.orgId),
          inArray(requests.status, [...AWAITING_CLIENT]),
          eq(requests.chasePaused, false),
          isNotNull(requests.sentAt),
          lte(requests.dueDate, addDays(today, MAX_BEFORE_DAYS)),
          isNull(clients.archivedAt),
          after
            ? or(
                gt(requests.dueDate, after.dueDate),
                and(eq(requests.dueDate, after.dueDate), gt(requests.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(requests.dueDate), asc(requests.id))
      .limit(BATCH);
    const due = page.flatMap((r) => {
      const step = chaseStepOn(scheduleOf(r), r.dueDate, todayIn(firm.timeZone, r.sentAt ?? now), today);
      return step ? [{ id: r.id, clientName: r.clientName, step }] : [];
    });
    // The steps already sent are skipped without a transaction each.
    const done = due.length
      ? new Set(
          (
            await db
              .select({ requestId: requestReminderSteps.requestId, step: requestReminderSteps.step })
              .from(requestReminderSteps)
              .where(
                and(
                  eq(requestReminderSteps.orgId, firm.orgId),
                  inArray(
                    requestReminderSteps.requestId,
                    due.map((d) => d.id),
                  ),
                ),
              )
          ).map((s) => `${s.requestId}:${s.step}`),
        )
      : new Set<string>();
    for (const candidate of due) {
      if (done.has(`${candidate.id}:${candidate.step}`)) continue;
      if (await chaseOne(db, firm, candidate, flagAfter, publicUrl, (d) => format.date(d))) queued += 1;
    }
    const last = page[page.length - 1];
    if (page.length < BATCH || !last) break;
    after = { dueDate: last.dueDate, id: last.id };
  }
  return queued;
}

/** One pass over every firm with requests waiting on clients: answers how many reminders were queued. */
export async function sendRequestReminders(
  db: TDb,
  publicUrl: string,
  now = new Date(),
  only?: { orgId: string },
) {
  const firms = await db
    .selectDistinct({ orgId: orgs.id, name: orgs.name, timeZone: orgs.timeZone })
    .from(requests)
    .innerJoin(orgs, eq(orgs.id, requests.orgId))
    .where(
      and(
        inArray(requests.status, [...AWAITING_CLIENT]),
        eq(requests.chasePaused, false),
        only ? eq(requests.orgId, only.orgId) : undefined,
      ),
    );
  let queued = 0;
  for (const firm of firms) queued += await chaseFirm(db, firm, publicUrl, now);
  return { firms: firms.length, queued };
}

export function registerRequestChaseJob() {
  registerJob(REQUEST_CHASE, async (_job, ctx) => {
    const result = await sendRequestReminders(ctx.db, ctx.config.publicUrl);
    if (result.queued) ctx.log.info(result, 'request reminders queued');
  });
  every(REQUEST_CHASE, 60 * 60_000);
}
