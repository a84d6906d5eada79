import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { TFormatter } from '../../../domain/format';
import { nextOccurrence } from '../../../domain/reminder-schedule';
import type { TReminderType } from '../../../domain/reminders';
import type { TExecutor } from '../../db/client';
import {
  clients,
  clientUserClients,
  clientUsers,
  jobs,
  members,
  notificationPreferences,
  orgs,
  reminderDeliveries,
  reminderMembers,
  reminders,
  requestRecipients,
} from '../../db/schema';
import { enqueue, type TJob } from '../../jobs/queue';
import { every, PermanentJobError, registerJob, type TJobContext } from '../../jobs/registry';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';

export const REMINDER_SEND = 'reminders.send';
export const REMINDER_SCAN = 'reminders.scan';
export const REMINDER_SEND_ATTEMPTS = 5;
/** 30 s, 1 min, 2 min, 4 min between the five attempts (with jitter), so a short outage is ridden out. */
export const REMINDER_BACKOFF = { baseMs: 30_000, capMs: 30 * 60_000 };

type TSendPayload = { reminderId: string; occurrenceAt: string; manual?: boolean };

export const reminderLink = (type: TReminderType, id: string) => `/reminders/${type}?open=${id}`;

/**
 * Queues the send of one occurrence. The dedupe key names the reminder and the occurrence, so the
 * create, the periodic scan and a second instance can all ask for it and it is queued once.
 */
export function queueSend(tx: TExecutor, r: { id: string; orgId: string; remindAt: Date }) {
  const occurrenceAt = r.remindAt.toISOString();
  return enqueue(tx, REMINDER_SEND, { reminderId: r.id, occurrenceAt } satisfies TSendPayload, {
    runAt: r.remindAt,
    dedupeKey: `${REMINDER_SEND}:${r.id}:${occurrenceAt}`,
    orgId: r.orgId,
    maxAttempts: REMINDER_SEND_ATTEMPTS,
  });
}

/** Send now, whatever the schedule: its own occurrence, so it never collides with a scheduled one. */
export function queueManualSend(tx: TExecutor, r: { id: string; orgId: string }, at: Date) {
  const occurrenceAt = at.toISOString();
  return enqueue(tx, REMINDER_SEND, { reminderId: r.id, occurrenceAt, manual: true } satisfies TSendPayload, {
    dedupeKey: `${REMINDER_SEND}:${r.id}:now:${occurrenceAt}`,
    orgId: r.orgId,
    maxAttempts: REMINDER_SEND_ATTEMPTS,
  });
}

/**
 * The email addresses a client is reached at: the client's own email and those of its active
 * portal users (client_users linked to the client), each once whatever its case. Every client and
 * expiry reminder reaches them all.
 */
export async function clientRecipients(db: TExecutor, orgId: string, clientId: string) {
  const [client] = await db
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)))
    .limit(1);
  if (!client) return { name: null, emails: [] as string[] };
  const portalUsers = await db
    .select({ email: clientUsers.email })
    .from(clientUserClients)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, clientUserClients.orgId), eq(clientUsers.id, clientUserClients.clientUserId)),
    )
    .where(
      and(
        eq(clientUserClients.orgId, orgId),
        eq(clientUserClients.clientId, clientId),
        eq(clientUsers.status, 'active'),
      ),
    )
    .orderBy(clientUsers.email)
    .limit(100);
  const emails = new Map<string, string>();
  for (const email of [client.email, ...portalUsers.map((u) => u.email)]) {
    const trimmed = email?.trim();
    if (trimmed && !emails.has(trimmed.toLowerCase())) emails.set(trimmed.toLowerCase(), trimmed);
  }
  return { name: client.name, emails: [...emails.values()] };
}

/** The active portal users a client request was sent to. */
async function requestRecipientEmails(db: TExecutor, orgId: string, requestId: string) {
  const rows = await db
    .select({ email: clientUsers.email })
    .from(requestRecipients)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, requestRecipients.orgId), eq(clientUsers.id, requestRecipients.clientUserId)),
    )
    .where(
      and(
        eq(requestRecipients.orgId, orgId),
        eq(requestRecipients.requestId, requestId),
        eq(clientUsers.status, 'active'),
      ),
    )
    .orderBy(clientUsers.email);
  return [...new Set(rows.map((r) => r.email.trim()).filter(Boolean))];
}

type TRecipient =
  | { channel: 'email'; recipient: string; memberId: string | null }
  | { channel: 'in_app'; recipient: string; memberId: string };

/** Who this reminder reaches on which channel; members' own notification preferences are honoured. */
async function recipientsOf(db: TExecutor, r: typeof reminders.$inferSelect): Promise<TRecipient[]> {
  const out: TRecipient[] = [];
  const byEmail = r.channels.includes('email');
  const inApp = r.channels.includes('in_app');
  if (r.requestId && byEmail) {
    // A request's chase reaches the people it was sent to, no one else of the client.
    for (const email of await requestRecipientEmails(db, r.orgId, r.requestId)) {
      out.push({ channel: 'email', recipient: email, memberId: null });
    }
  } else if ((r.type === 'client' || r.type === 'expiry') && r.clientId && byEmail) {
    const { emails } = await clientRecipients(db, r.orgId, r.clientId);
    for (const email of emails) out.push({ channel: 'email', recipient: email, memberId: null });
  }
  if (r.type === 'team' || r.type === 'expiry') {
    const people = await db
      .select({
        memberId: members.id,
        email: members.email,
        inApp: sql<boolean>`coalesce(${notificationPreferences.inApp}, true)`,
        byEmail: sql<boolean>`coalesce(${notificationPreferences.email}, true)`,
      })
      .from(reminderMembers)
      .innerJoin(
        members,
        and(eq(members.orgId, reminderMembers.orgId), eq(members.id, reminderMembers.memberId)),
      )
      .leftJoin(
        notificationPreferences,
        and(
          eq(notificationPreferences.orgId, members.orgId),
          eq(notificationPreferences.memberId, members.id),
          eq(notificationPreferences.kind, 'reminder.due'),
        ),
      )
      .where(
        and(
          eq(reminderMembers.orgId, r.orgId),
          eq(reminderMembers.reminderId, r.id),
          eq(members.status, 'active'),
        ),
      );
    for (const p of people) {
      if (inApp && p.inApp) out.push({ channel: 'in_app', recipient: p.email, memberId: p.memberId });
      if (byEmail && p.byEmail) out.push({ channel: 'email', recipient: p.email, memberId: p.memberId });
    }
  }
  return out;
}

function mailText(r: typeof reminders.$inferSelect, firm: string, link: string | null, format: TFormatter) {
  const lines = [r.message || r.title];
  if (r.type === 'expiry' && r.itemName && r.expiryDate) {
    lines.push(`${r.itemName} expires on ${format.date(r.expiryDate)}.`);
  }
  if (link) lines.push(`Open it: ${link}`);
  lines.push(`— ${firm}`);
  return `${lines.join('\n\n')}\n`;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 1000);

/** One attempt at one occurrence: every recipient not yet reached, each delivery recorded. */
async function send(job: TJob, ctx: TJobContext) {
  const p = job.payload as TSendPayload;
  const orgId = job.orgId;
  if (!orgId || !p?.reminderId || !p.occurrenceAt) throw new PermanentJobError('Malformed reminder job');
  const [r] = await ctx.db
    .select()
    .from(reminders)
    .where(and(eq(reminders.orgId, orgId), eq(reminders.id, p.reminderId)))
    .limit(1);
  // Deleted, cancelled, or edited to another time since this was queued: nothing to send.
  if (!r || r.status === 'cancelled') return;
  if (!p.manual && (r.status !== 'scheduled' || r.remindAt.toISOString() !== p.occurrenceAt)) return;
  const [org] = await ctx.db
    .select({ name: orgs.name, timeZone: orgs.timeZone })
    .from(orgs)
    .where(eq(orgs.id, orgId));
  const occurrenceAt = new Date(p.occurrenceAt);
  const format = await firmFormatter(ctx.db, orgId);

  const recipients = await recipientsOf(ctx.db, r);
  if (recipients.length === 0) {
    throw new PermanentJobError(
      r.type === 'team'
        ? 'Nobody to send it to: none of the chosen members is active or wants reminders'
        : r.requestId
          ? 'Nobody to send it to: none of the people the request went to uses the portal any more'
          : 'Nobody to send it to: the client has no email address',
    );
  }
  const done = new Set(
    (
      await ctx.db
        .select({ channel: reminderDeliveries.channel, recipient: reminderDeliveries.recipient })
        .from(reminderDeliveries)
        .where(
          and(
            eq(reminderDeliveries.orgId, orgId),
            eq(reminderDeliveries.reminderId, r.id),
            eq(reminderDeliveries.occurrenceAt, occurrenceAt),
            eq(reminderDeliveries.status, 'sent'),
          ),
        )
    ).map((d) => `${d.channel}:${d.recipient}`),
  );
  const pending = recipients.filter((x) => !done.has(`${x.channel}:${x.recipient}`));
  const link = new URL(reminderLink(r.type, r.id), ctx.config.publicUrl).toString();
  const failures: string[] = [];

  const inApp = pending.filter((x) => x.channel === 'in_app');
  if (inApp.length) {
    await ctx.db.transaction(async (tx) => {
      await notify(
        tx,
        {
          orgId,
          memberIds: inApp.map((x) => x.memberId as string),
          kind: 'reminder.due',
          title: r.title,
          body: (r.message || undefined)?.slice(0, 2000),
          link: reminderLink(r.type, r.id),
        },
        // The in-app channel only: the email channel below mails them, once, with its own record.
        { email: false },
      );
      await tx.insert(reminderDeliveries).values(
        inApp.map((x) => ({
          orgId,
          reminderId: r.id,
          occurrenceAt,
          channel: x.channel,
          recipient: x.recipient,
          memberId: x.memberId,
          status: 'sent' as const,
          attempt: job.attempts,
        })),
      );
    });
  }
  for (const x of pending.filter((y) => y.channel === 'email')) {
    let error: string | null = null;
    try {
      await ctx.mailer.send({
        to: x.recipient,
        subject: r.title,
        // Staff get the link into the app; a client gets the message alone.
        text: mailText(r, org?.name ?? 'Practice', x.memberId ? link : null, format),
        notes: x.memberId ? { link } : {},
      });
    } catch (e) {
      error = errorText(e);
      failures.push(`${x.recipient}: ${error}`);
    }
    await ctx.db.insert(reminderDeliveries).values({
      orgId,
      reminderId: r.id,
      occurrenceAt,
      channel: 'email',
      recipient: x.recipient,
      memberId: x.memberId,
      status: error ? 'failed' : 'sent',
      attempt: job.attempts,
      error,
    });
  }

  if (failures.length) {
    const message = `Could not deliver to ${failures.join('; ')}`;
    await ctx.db
      .update(reminders)
      .set({ lastError: message })
      .where(and(eq(reminders.orgId, orgId), eq(reminders.id, r.id)));
    // The queue retries with backoff; recipients already reached are skipped next time.
    throw new Error(message);
  }

  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const after = new Date(Math.max(now.getTime(), occurrenceAt.getTime()));
    const next = nextOccurrence(r.anchorAt, r.recurrence, after, org?.timeZone ?? 'UTC');
    const [updated] = await tx
      .update(reminders)
      .set(
        next
          ? { status: 'scheduled', remindAt: next, lastSentAt: now, lastError: null, updatedAt: now }
          : { status: 'sent', lastSentAt: now, lastError: null, updatedAt: now },
      )
      // Cancelled (or edited) while sending: leave it as the member left it.
      .where(
        and(
          eq(reminders.orgId, orgId),
          eq(reminders.id, r.id),
          inArray(reminders.status, ['scheduled', 'failed']),
          p.manual ? undefined : eq(reminders.remindAt, r.remindAt),
        ),
      )
      .returning({ id: reminders.id });
    if (!updated) return;
    if (next) await queueSend(tx, { id: r.id, orgId, remindAt: next });
    await audit(
      tx,
      { kind: 'system', orgId },
      {
        action: 'reminder.sent',
        recordType: 'reminder',
        recordId: r.id,
        summary: `Sent the reminder “${r.title}” to ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}${next ? `; next on ${next.toISOString()}` : ''}`,
      },
    );
  });
}

/** The last attempt failed: the reminder shows it, its creator hears of it, nothing is dropped. */
async function sendFailed(job: TJob, error: string, ctx: TJobContext) {
  const p = job.payload as TSendPayload;
  const orgId = job.orgId;
  if (!orgId || !p?.reminderId) return;
  await ctx.db.transaction(async (tx) => {
    const [r] = await tx
      .update(reminders)
      .set({ status: 'failed', lastError: error, updatedAt: new Date() })
      .where(
        and(
          eq(reminders.orgId, orgId),
          eq(reminders.id, p.reminderId),
          inArray(reminders.status, ['scheduled', 'sent', 'failed']),
        ),
      )
      .returning({
        id: reminders.id,
        title: reminders.title,
        type: reminders.type,
        createdBy: reminders.createdBy,
      });
    if (!r) return;
    await audit(
      tx,
      { kind: 'system', orgId },
      {
        action: 'reminder.failed',
        recordType: 'reminder',
        recordId: r.id,
        summary: `The reminder “${r.title}” could not be sent after ${job.attempts} attempt${job.attempts === 1 ? '' : 's'}: ${error}`,
      },
    );
    if (r.createdBy) {
      await notify(
        tx,
        {
          orgId,
          memberIds: [r.createdBy],
          kind: 'reminder.due',
          title: `Reminder not sent: ${r.title}`.slice(0, 200),
          body: error.slice(0, 2000),
          link: reminderLink(r.type, r.id),
        },
        // In the app: the mail that failed is what this is about.
        { email: false },
      );
    }
  });
}

/**
 * The safety net behind the sends queued at create and after each send: any scheduled reminder
 * that is due (or due within the minute) gets its send queued; the dedupe key makes this a no-op
 * for those already queued.
 */
export async function queueDueReminders(db: TExecutor) {
  const due = await db
    .select({ id: reminders.id, orgId: reminders.orgId, remindAt: reminders.remindAt })
    .from(reminders)
    .where(and(eq(reminders.status, 'scheduled'), lte(reminders.remindAt, sql`now() + interval '1 minute'`)))
    .orderBy(reminders.remindAt)
    .limit(1000);
  if (due.length === 0) return;
  await db
    .insert(jobs)
    .values(
      due.map((r) => ({
        kind: REMINDER_SEND,
        payload: { reminderId: r.id, occurrenceAt: r.remindAt.toISOString() } satisfies TSendPayload,
        runAt: r.remindAt,
        dedupeKey: `${REMINDER_SEND}:${r.id}:${r.remindAt.toISOString()}`,
        orgId: r.orgId,
        maxAttempts: REMINDER_SEND_ATTEMPTS,
      })),
    )
    .onConflictDoNothing({ target: jobs.dedupeKey });
}

export function registerReminderJobs() {
  registerJob(REMINDER_SEND, send, { backoff: REMINDER_BACKOFF, onFailed: sendFailed });
  registerJob(REMINDER_SCAN, (_job, ctx) => queueDueReminders(ctx.db));
  every(REMINDER_SCAN, 60_000);
}
