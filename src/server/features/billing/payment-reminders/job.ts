import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { OPEN_STATUSES } from '../../../../domain/billing/constants';
import { reminderStepOn, type TReminderSchedule } from '../../../../domain/billing/payments';
import { addDays, daysApart, todayIn } from '../../../../domain/days';
import type { TFormatter } from '../../../../domain/format';
import type { TDb } from '../../../db/client';
import {
  billingSettings,
  clientBilling,
  clients,
  invoiceReminderSteps,
  invoices,
  orgs,
  reminders,
} from '../../../db/schema';
import { every, registerJob } from '../../../jobs/registry';
import { queueSend } from '../../reminders';
import { firmFormatter } from '../../settings';
import { audit } from '../../system-log';

// Payment reminders: for firms that turned them on, each open invoice of a client not paused gets
// the steps of the firm's schedule (before the due date, on it, every N days after), each exactly
// once whatever the number of instances: the step's row in invoice_reminder_steps is written first,
// and its primary key refuses a second. A step is sent as a client reminder of the reminders
// feature, so it is mailed, retried and kept in the client's delivery history like any other.

export const PAYMENT_REMINDERS = 'billing.paymentReminders';
/** Invoices one run reminds per firm at most; the next run (an hour later) takes the rest. */
const BATCH = 500;

type TCandidate = {
  id: string;
  number: string | null;
  clientId: string;
  clientName: string;
  total: number;
  balance: number;
  issueDate: string | null;
  dueDate: string;
};

export function reminderText(
  invoice: TCandidate,
  step: string,
  today: string,
  firm: { name: string; bankDetails: string; portalLink: string },
  format: TFormatter,
) {
  const number = invoice.number ?? 'Your invoice';
  const balance = format.moneyMinor(invoice.balance);
  const due = format.date(invoice.dueDate);
  const late = daysApart(invoice.dueDate, today);
  const title =
    step === 'before'
      ? `${number} is due on ${due}`
      : step === 'due'
        ? `${number} is due today`
        : `${number} is overdue: ${balance} unpaid`;
  const lines = [
    `Dear ${invoice.clientName},`,
    step === 'before'
      ? `This is a reminder that invoice ${number}${invoice.issueDate ? ` of ${format.date(invoice.issueDate)}` : ''} is due on ${due}. Amount due: ${balance}.`
      : step === 'due'
        ? `Invoice ${number} is due today (${due}). Amount due: ${balance}.`
        : `Invoice ${number} was due on ${due}, ${late} day${late === 1 ? '' : 's'} ago, and ${balance} of it is still unpaid.`,
    `See the invoice and pay: ${firm.portalLink}`,
    firm.bankDetails ? `Our bank details:\n${firm.bankDetails}` : '',
    'If you have paid already, thank you: please ignore this reminder.',
  ];
  return { title: title.slice(0, 200), message: lines.filter(Boolean).join('\n\n') };
}

async function remindFirm(
  db: TDb,
  firm: { orgId: string; name: string; timeZone: string; bankDetails: string } & TReminderSchedule,
  publicUrl: string,
  now: Date,
) {
  const today = todayIn(firm.timeZone, now);
  const horizon = addDays(today, firm.remindBeforeDays ?? 0);
  const candidates: TCandidate[] = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      clientId: invoices.clientId,
      clientName: clients.name,
      total: invoices.total,
      balance: invoices.balance,
      issueDate: invoices.issueDate,
      dueDate: sql<string>`${invoices.dueDate}::text`,
    })
    .from(invoices)
    .innerJoin(clients, and(eq(clients.orgId, invoices.orgId), eq(clients.id, invoices.clientId)))
    .leftJoin(
      clientBilling,
      and(eq(clientBilling.orgId, invoices.orgId), eq(clientBilling.clientId, invoices.clientId)),
    )
    .where(
      and(
        eq(invoices.orgId, firm.orgId),
        eq(invoices.kind, 'invoice'),
        inArray(invoices.status, [...OPEN_STATUSES]),
        gt(invoices.balance, 0),
        lte(invoices.dueDate, horizon),
        isNull(clients.archivedAt),
        or(isNull(clientBilling.remindersPaused), eq(clientBilling.remindersPaused, false)),
      ),
    )
    .orderBy(asc(invoices.dueDate), asc(invoices.id))
    .limit(BATCH);
  if (!candidates.length) return 0;
  const format = await firmFormatter(db, firm.orgId);
  let sent = 0;
  for (const invoice of candidates) {
    const step = reminderStepOn(firm, invoice.dueDate, today);
    if (!step) continue;
    const queued = await db.transaction(async (tx) => {
      // Paid since the list was read: no reminder, and the step stays free.
      const [still] = await tx
        .select({ balance: invoices.balance, status: invoices.status })
        .from(invoices)
        .where(and(eq(invoices.orgId, firm.orgId), eq(invoices.id, invoice.id)))
        .for('share');
      if (!still || still.balance <= 0 || !(OPEN_STATUSES as readonly string[]).includes(still.status)) {
        return false;
      }
      const [taken] = await tx
        .insert(invoiceReminderSteps)
        .values({ orgId: firm.orgId, invoiceId: invoice.id, step })
        .onConflictDoNothing()
        .returning({ step: invoiceReminderSteps.step });
      if (!taken) return false;
      const text = reminderText(
        { ...invoice, balance: still.balance },
        step,
        today,
        {
          name: firm.name,
          bankDetails: firm.bankDetails,
          portalLink: new URL(`/clientportal/${invoice.clientId}/invoices`, publicUrl).toString(),
        },
        format,
      );
      const [reminder] = await tx
        .insert(reminders)
        .values({
          orgId: firm.orgId,
          type: 'client',
          title: text.title,
          message: text.message,
          clientId: invoice.clientId,
          // Sent now: `now` only decides which day it is for the schedule.
          remindAt: new Date(),
          anchorAt: new Date(),
          recurrence: 'none',
          channels: ['email'],
          status: 'scheduled',
        })
        .returning({ id: reminders.id, orgId: reminders.orgId, remindAt: reminders.remindAt });
      if (!reminder) throw new Error('reminder not created');
      await queueSend(tx, reminder);
      await audit(
        tx,
        { kind: 'system', orgId: firm.orgId },
        {
          action: 'invoice.reminder',
          recordType: 'invoice',
          recordId: invoice.id,
          summary: `Payment reminder (${stepLabel(step)}) for ${invoice.number} sent to ${invoice.clientName}: ${format.moneyMinor(still.balance)} due`,
        },
      );
      return true;
    });
    if (queued) sent += 1;
  }
  return sent;
}

const stepLabel = (step: string) =>
  step === 'before'
    ? 'before the due date'
    : step === 'due'
      ? 'on the due date'
      : `reminder ${step.slice(6)} after the due date`;

/** One pass over every firm with reminders on: answers how many reminders were queued. */
export async function sendPaymentReminders(db: TDb, publicUrl: string, now = new Date()) {
  const firms = await db
    .select({
      orgId: billingSettings.orgId,
      name: orgs.name,
      timeZone: orgs.timeZone,
      bankDetails: billingSettings.bankDetails,
      remindBeforeDays: billingSettings.remindBeforeDays,
      remindOnDue: billingSettings.remindOnDue,
      remindEveryDays: billingSettings.remindEveryDays,
    })
    .from(billingSettings)
    .innerJoin(orgs, eq(orgs.id, billingSettings.orgId))
    .where(eq(billingSettings.remindersEnabled, true));
  let queued = 0;
  for (const firm of firms) queued += await remindFirm(db, firm, publicUrl, now);
  return { firms: firms.length, queued };
}

export function registerPaymentReminderJobs() {
  registerJob(PAYMENT_REMINDERS, async (_job, ctx) => {
    const result = await sendPaymentReminders(ctx.db, ctx.config.publicUrl);
    if (result.queued) ctx.log.info(result, 'payment reminders queued');
  });
  every(PAYMENT_REMINDERS, 60 * 60_000);
}
