import { eq } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { jobs } from '../db/schema';
import type { TJob } from '../jobs/queue';
import { PermanentJobError, registerJob, type TJobContext } from '../jobs/registry';
import type { TMailMessage } from './mailer';
import { notificationMessage, type TNotificationMail } from './messages';

// Mail the product sends because something changed (an invitation, a notification) is a job
// enqueued in the change's own transaction: it commits with the change or not at all, and the
// queue's worker sends it, retrying with backoff. A crash after the commit leaves the job queued,
// and the next instance (or this one after its restart) sends it.
//
// Delivery is at least once. The handler marks the job done, and forgets the text, in the
// statement right after the SMTP server (or the outbox) accepted the message, so a job that has
// sent never sends again because of something that went wrong afterwards. A crash (or a lost
// database connection) between the server accepting the message and that statement leaves the job
// running; when its lease runs out the message goes out a second time. That window is one
// statement wide, and a duplicate is the lesser harm than a lost invitation.

export const MAIL_SEND = 'mail.send';
export const MAIL_SEND_ATTEMPTS = 5;
/** 30 s, 1 min, 2 min, 4 min between the five attempts (with jitter): a short outage is ridden out. */
export const MAIL_BACKOFF = { baseMs: 30_000, capMs: 30 * 60_000 };

/** A queued mail: a message written in full, or a notification made into one when it is sent. */
export type TMailJobPayload =
  | { message: TMailMessage }
  | { notification: TNotificationMail }
  /** Sent, or failed for good: what it was, without the text (links in it may carry keys). */
  | { to: string; subject: string; sentAt?: string };

export type TEnqueueMailOptions = {
  /** The firm it is sent for: its system log records a mail that could not be sent. */
  orgId?: string | null;
  /** Not before this instant (default: now). */
  runAt?: Date;
};

function assertRecipient(to: string) {
  if (!to.trim()) throw new Error('A mail needs a recipient');
}

/**
 * Queues a message for the worker to send. Pass the mutation's transaction: the mail goes out only
 * if the change commits, and goes out even if this process dies right after the commit.
 */
export async function enqueueMail(
  tx: TExecutor,
  message: TMailMessage,
  options: TEnqueueMailOptions = {},
): Promise<{ id: string }> {
  assertRecipient(message.to);
  const [row] = await queued(tx, [{ message }], options);
  if (!row) throw new Error('mail not queued');
  return row;
}

/** Queues notifications' mail, one job each; links are made absolute with PUBLIC_URL when sent. */
export async function enqueueNotificationMail(
  tx: TExecutor,
  notifications: readonly TNotificationMail[],
  options: TEnqueueMailOptions = {},
): Promise<{ id: string }[]> {
  for (const n of notifications) assertRecipient(n.to);
  return queued(
    tx,
    notifications.map((notification) => ({ notification })),
    options,
  );
}

async function queued(tx: TExecutor, payloads: TMailJobPayload[], options: TEnqueueMailOptions) {
  if (payloads.length === 0) return [];
  const runAt = options.runAt ?? new Date();
  return tx
    .insert(jobs)
    .values(
      payloads.map((payload) => ({
        kind: MAIL_SEND,
        payload,
        runAt,
        orgId: options.orgId ?? null,
        maxAttempts: MAIL_SEND_ATTEMPTS,
      })),
    )
    .returning({ id: jobs.id });
}

/** The message a payload stands for, or null when there is none to send (sent, or malformed). */
export function renderMail(payload: unknown, publicUrl: string): TMailMessage | null {
  const p = (payload ?? {}) as Partial<Record<'message' | 'notification', unknown>>;
  if (p.message && typeof p.message === 'object') return p.message as TMailMessage;
  if (p.notification && typeof p.notification === 'object') {
    return notificationMessage(publicUrl, p.notification as TNotificationMail);
  }
  return null;
}

/** What a payload was, without its text: kept on the job once it is sent or has failed. */
function summaryOf(payload: unknown): { to: string; subject: string } {
  const p = (payload ?? {}) as {
    message?: Partial<TMailMessage>;
    notification?: Partial<TNotificationMail>;
    to?: string;
    subject?: string;
  };
  return {
    to: String(p.message?.to ?? p.notification?.to ?? p.to ?? ''),
    subject: String(p.message?.subject ?? p.notification?.title ?? p.subject ?? ''),
  };
}

const isSent = (payload: unknown) => typeof (payload as { sentAt?: unknown } | null)?.sentAt === 'string';

async function send(job: TJob, ctx: TJobContext) {
  // An earlier attempt sent it and recorded so; whatever brought the job back, it is not sent again.
  if (isSent(job.payload)) return;
  const message = renderMail(job.payload, ctx.config.publicUrl);
  if (!message?.to) throw new PermanentJobError('Malformed mail job: no message to send');
  await ctx.mailer.send(message);
  // Done at once, in the statement right after the send (see the top of this file).
  await ctx.db
    .update(jobs)
    .set({
      status: 'done',
      lockedBy: null,
      lockedUntil: null,
      payload: { ...summaryOf(job.payload), sentAt: new Date().toISOString() },
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, job.id));
}

export type TFailedMail = {
  orgId: string | null;
  to: string;
  subject: string;
  attempts: number;
  error: string;
};

/**
 * Registers the worker's mail sender. `onFailed` hears of a mail that could not be sent after its
 * last attempt (jobs/setup.ts writes it to the firm's system log); the job itself is left failed with
 * the error, and the log has it.
 */
export function registerMailJob(
  options: { onFailed?: (mail: TFailedMail, ctx: TJobContext) => Promise<void> } = {},
) {
  registerJob(MAIL_SEND, send, {
    backoff: MAIL_BACKOFF,
    async onFailed(job, error, ctx) {
      const summary = summaryOf(job.payload);
      await ctx.db.update(jobs).set({ payload: summary }).where(eq(jobs.id, job.id));
      ctx.log.error(
        { jobId: job.id, to: summary.to, subject: summary.subject, attempts: job.attempts, err: error },
        'mail not sent',
      );
      await options.onFailed?.({ orgId: job.orgId, ...summary, attempts: job.attempts, error }, ctx);
    },
  });
}
