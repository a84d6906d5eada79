import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reminderStepOn } from '../../../../domain/billing/payments';
import {
  billingSettings,
  clientBilling,
  clients,
  invoiceReminderSteps,
  reminderDeliveries,
  reminders,
  systemLog,
} from '../../../db/schema';
import { registerJobs } from '../../../jobs/setup';
import { createWorker, type TWorker } from '../../../jobs/worker';
import { readOutbox } from '../../../mail';
import { createMailer } from '../../../mail/mailer';
import { createTestApp, type TTestApp } from '../../../test/app';
import { billingFirm, issuedInvoice } from '../../../test/billing';
import { seedClient } from '../../../test/fixtures';
import { REMINDER_SEND } from '../../reminders';
import { sendPaymentReminders } from '..';

let t: TTestApp;
let worker: TWorker;

beforeAll(async () => {
  t = await createTestApp();
  registerJobs(t.storage);
  worker = createWorker(
    {
      db: t.db,
      config: t.config,
      mailer: createMailer(t.config.mail),
      log: { info() {}, warn() {}, error() {} },
    },
    { pollMs: 10, kinds: [REMINDER_SEND] },
  );
});
afterAll(() => t?.close());

async function drain() {
  for (let n = await worker.tick(); n > 0; n = await worker.tick());
}

/** Noon in Kolkata on a day: the firm's "today" whatever the server's clock. */
const on = (day: string) => new Date(`${day}T06:30:00Z`);

// The outbox outlives a run: an address of this run's own counts only this run's mail.
const payer = `accounts-${Date.now()}@slowpayer.test`;

describe('the payment-reminder schedule', () => {
  const schedule = { remindBeforeDays: 3, remindOnDue: true, remindEveryDays: 7 };
  it('names the step an invoice is at, day by day', () => {
    const due = '2026-12-10';
    const steps = [
      '2026-12-06',
      '2026-12-07',
      '2026-12-09',
      '2026-12-10',
      '2026-12-16',
      '2026-12-17',
      '2026-12-24',
    ].map((d) => reminderStepOn(schedule, due, d));
    expect(steps).toEqual([null, 'before', 'before', 'due', 'due', 'after:1', 'after:2']);
    const dueOnly = { remindBeforeDays: null, remindOnDue: true, remindEveryDays: null };
    expect(
      ['2026-12-09', '2026-12-10', '2026-12-13', '2026-12-14'].map((d) => reminderStepOn(dueOnly, due, d)),
    ).toEqual([null, 'due', 'due', null]);
    const afterOnly = { remindBeforeDays: null, remindOnDue: false, remindEveryDays: 5 };
    expect(['2026-12-10', '2026-12-15'].map((d) => reminderStepOn(afterOnly, due, d))).toEqual([
      null,
      'after:1',
    ]);
  });
});

describe('payment reminders', () => {
  it('sends each step once, as a client reminder with its delivery, and stops when paid or paused', async () => {
    const firm = await billingFirm(t, 'Remind & Co');
    await t.db
      .update(billingSettings)
      .set({
        remindersEnabled: true,
        remindBeforeDays: 3,
        remindOnDue: true,
        remindEveryDays: 7,
        bankDetails: 'HDFC 0001',
      })
      .where(eq(billingSettings.orgId, firm.org.id));
    const client = await seedClient(t, firm.org.id, { name: 'Slow Payer' });
    await t.db.update(clients).set({ email: payer }).where(eq(clients.id, client.id));
    const paused = await seedClient(t, firm.org.id, { name: 'Paused Payer' });
    await t.db
      .insert(clientBilling)
      .values({ orgId: firm.org.id, clientId: paused.id, remindersPaused: true });
    const invoice = await issuedInvoice(t, firm.org.id, client.id, 1_180_000, {
      issueDate: '2026-11-25',
      dueDate: '2026-12-10',
    });
    await issuedInvoice(t, firm.org.id, paused.id, 50_000, {
      issueDate: '2026-11-25',
      dueDate: '2026-12-10',
    });
    // A firm with reminders off is left alone.
    const quiet = await billingFirm(t, 'Quiet & Co');
    const quietClient = await seedClient(t, quiet.org.id);
    await issuedInvoice(t, quiet.org.id, quietClient.id, 5_000, {
      issueDate: '2026-11-25',
      dueDate: '2026-12-10',
    });

    expect((await sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-01'))).queued).toBe(0);
    expect((await sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-07'))).queued).toBe(1);
    // Again the same day, and two instances at once: nothing more.
    const again = await Promise.all([
      sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-08')),
      sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-08')),
    ]);
    expect(again.map((r) => r.queued)).toEqual([0, 0]);
    await drain();

    const sent = await t.db.select().from(reminders).where(eq(reminders.clientId, client.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: 'client',
      status: 'sent',
      title: expect.stringMatching(/is due on/),
    });
    expect(sent[0]?.message).toMatch(/11,800\.00/);
    expect(sent[0]?.message).toContain(`/clientportal/${client.id}/invoices`);
    const deliveries = await t.db
      .select()
      .from(reminderDeliveries)
      .where(eq(reminderDeliveries.reminderId, sent[0]?.id ?? ''));
    expect(deliveries).toMatchObject([{ channel: 'email', recipient: payer, status: 'sent' }]);
    const mail = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === payer);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain('HDFC 0001');

    expect((await sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-10'))).queued).toBe(1);
    expect((await sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-18'))).queued).toBe(1);
    const steps = await t.db
      .select({ step: invoiceReminderSteps.step })
      .from(invoiceReminderSteps)
      .where(eq(invoiceReminderSteps.invoiceId, invoice.id));
    expect(steps.map((s) => s.step).sort()).toEqual(['after:1', 'before', 'due']);
    const log = await t.db
      .select({ action: systemLog.action, actorKind: systemLog.actorKind, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.recordId, invoice.id), eq(systemLog.action, 'invoice.reminder')));
    expect(log).toHaveLength(3);
    expect(log.every((l) => l.actorKind === 'system')).toBe(true);

    // Paid: the reminders stop.
    await t.client(firm.owner.token).billing.payments.record.mutate({
      clientId: client.id,
      receivedOn: '2026-12-20',
      method: 'upi',
      amount: 1_180_000,
      allocations: [{ invoiceId: invoice.id, amount: 1_180_000 }],
    });
    expect((await sendPaymentReminders(t.db, t.config.publicUrl, on('2026-12-25'))).queued).toBe(0);
    expect(await t.db.select().from(reminders).where(eq(reminders.clientId, paused.id))).toEqual([]);
    expect(await t.db.select().from(reminders).where(eq(reminders.clientId, quietClient.id))).toEqual([]);
  }, 120_000);
});
