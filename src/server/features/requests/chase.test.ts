import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRequestTemplateSave } from '../../../domain/requests/schemas';
import {
  clients,
  notifications,
  projects,
  reminderDeliveries,
  reminders,
  requestReminderSteps,
  requests,
  systemLog,
} from '../../db/schema';
import { registerJobs } from '../../jobs/setup';
import { createWorker, type TWorker } from '../../jobs/worker';
import { readOutbox } from '../../mail';
import { createMailer } from '../../mail/mailer';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { seedPortalWorld } from '../../test/portal-world';
import { REMINDER_SEND } from '../reminders';
import { sendRequestReminders } from '.';

// Chasing client requests (issue 36, item 5) through the router and the job: the firm's default
// schedule copied onto a request, each step mailed once to the request's own recipients (two
// instances at once included), kept in the client's delivery history, stopped by submitting or
// pausing, and the sender told once when the firm's number of reminders goes unanswered.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let worker: TWorker;
let cousin: Awaited<ReturnType<typeof seedPortalUser>>;
// The outbox outlives a run: addresses of this run's own count only this run's mail.
const stamp = Date.now();
const clientEmail = `office-${stamp}@mehta.test`;

const SECTIONS: TRequestTemplateSave['sections'] = [
  {
    title: '',
    items: [
      { key: 'pan', kind: 'short_text', label: 'PAN' },
      { key: 'ack', kind: 'acknowledgement', label: 'I confirm' },
    ],
  },
];

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
  w = await seedPortalWorld(t);
  await t.db.update(clients).set({ email: clientEmail }).where(eq(clients.id, w.own.client.id));
  cousin = await seedPortalUser(t, {
    orgId: w.firm.org.id,
    clientIds: [w.own.client.id],
    email: `cousin-${stamp}@mehta.test`,
  });
}, 120_000);
afterAll(() => t?.close());

async function drain() {
  for (let n = await worker.tick(); n > 0; n = await worker.tick());
}

/** Noon in Kolkata on a day: the firm's "today" whatever the server's clock. */
const on = (day: string) => new Date(`${day}T06:30:00Z`);
const chase = (day: string) => sendRequestReminders(t.db, t.config.publicUrl, on(day));

/** A request sent on `sentDay` (the past, as far as the job's clock goes), due on `dueDate`. */
async function sentRequest(title: string, dueDate: string, sentDay: string, chaseInput?: object) {
  const made = await w.own.api.requests.create.mutate({
    clientId: w.own.client.id,
    title,
    dueDate,
    recipientIds: [w.portal.user.id],
    sections: SECTIONS,
    ...(chaseInput ? { chase: chaseInput as never } : {}),
  });
  await t.db
    .update(requests)
    .set({ sentAt: on(sentDay) })
    .where(eq(requests.id, made.id));
  return made.id;
}

const stepsOf = async (requestId: string) =>
  (
    await t.db
      .select({ step: requestReminderSteps.step })
      .from(requestReminderSteps)
      .where(eq(requestReminderSteps.requestId, requestId))
  )
    .map((s) => s.step)
    .sort();

describe('the firm’s default schedule', () => {
  it('starts at 7 and 1 days before, on the day, every 3 days after, flagged after 3', async () => {
    expect(await w.own.api.requests.chaseSettings.query()).toEqual({
      schedule: { beforeDays: [7, 1], onDue: true, everyDays: 3 },
      flagAfter: 3,
      summary: '7 and 1 days before, on the due date, then every 3 days after',
    });
  });

  it('is changed in firm settings, logged, and copied onto the requests made after', async () => {
    const api = w.own.api;
    await api.requests.updateChaseSettings.mutate({
      schedule: { beforeDays: [1, 5], onDue: true, everyDays: 4 },
      flagAfter: 2,
    });
    const [log] = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'request.chase_settings')));
    expect(log?.summary).toContain('5 and 1 days before, on the due date, then every 4 days after');
    const id = await sentRequest('Copied schedule', '2099-03-31', '2099-01-01');
    const detail = await api.requests.get.query({ requestId: id });
    expect(detail.chase).toMatchObject({
      schedule: { beforeDays: [5, 1], onDue: true, everyDays: 4 },
      paused: false,
      sent: [],
    });
    // The sender's own choice wins over the default.
    const own = await sentRequest('Own schedule', '2099-03-31', '2099-01-01', {
      beforeDays: [2],
      onDue: false,
      everyDays: null,
    });
    expect((await api.requests.get.query({ requestId: own })).chase.summary).toBe('2 days before');
    // Back to the defaults for the job's tests below.
    await api.requests.updateChaseSettings.mutate({
      schedule: { beforeDays: [7, 1], onDue: true, everyDays: 3 },
      flagAfter: 3,
    });
    await t.db
      .update(requests)
      .set({ status: 'cancelled' })
      .where(inArray(requests.id, [id, own]));
  });

  it('refuses bad numbers with a message, and staff without the right', async () => {
    const api = w.own.api;
    const bad = await codeOf(() =>
      api.requests.updateChaseSettings.mutate({
        schedule: { beforeDays: [0], onDue: true, everyDays: 3 },
        flagAfter: 3,
      }),
    );
    expect(bad).toBe('BAD_REQUEST');
    expect(
      await codeOf(() =>
        t.client(w.firm.staff.token).requests.updateChaseSettings.mutate({
          schedule: { beforeDays: [], onDue: true, everyDays: null },
          flagAfter: 1,
        }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('the chase job', () => {
  it('mails each step once to the request’s recipients, keeps the delivery, flags after 3 unanswered', async () => {
    const id = await sentRequest('Bank statements FY 2025-26', '2026-12-10', '2026-11-20');
    expect((await chase('2026-12-01')).queued).toBe(0);
    expect((await chase('2026-12-03')).queued).toBe(1);
    // Again the same day, and two instances at once: nothing more.
    const again = await Promise.all([chase('2026-12-04'), chase('2026-12-04')]);
    expect(again.map((r) => r.queued)).toEqual([0, 0]);
    await drain();

    const [first] = await t.db.select().from(reminders).where(eq(reminders.requestId, id));
    expect(first).toMatchObject({
      type: 'client',
      clientId: w.own.client.id,
      status: 'sent',
      title: expect.stringContaining('Bank statements FY 2025-26 is due on'),
    });
    expect(first?.message).toContain(`/clientportal/${w.own.client.id}/requests/${id}`);
    // The request's recipient only: not the client's own address, not the other portal user.
    const deliveries = await t.db
      .select({ recipient: reminderDeliveries.recipient, status: reminderDeliveries.status })
      .from(reminderDeliveries)
      .where(eq(reminderDeliveries.reminderId, first?.id ?? ''));
    expect(deliveries).toEqual([{ recipient: w.portal.user.email, status: 'sent' }]);
    const outbox = await readOutbox(t.config.mail.outboxDir);
    expect(outbox.filter((m) => m.to === clientEmail || m.to === cousin.user.email)).toEqual([]);
    // In the client's delivery history: the reminders list of the client.
    const history = await w.own.api.reminders.list.query({ type: 'client', clientId: w.own.client.id });
    expect(history.rows.map((r) => r.title)).toContain(first?.title);

    expect((await chase('2026-12-09')).queued).toBe(1);
    expect(
      await t.db.select().from(notifications).where(eq(notifications.kind, 'request.attention')),
    ).toEqual([]);
    expect((await chase('2026-12-10')).queued).toBe(1);
    // Three unanswered: needs attention, and its sender (the firm's owner) is told once.
    const told = await t.db
      .select({ memberId: notifications.memberId, link: notifications.link, title: notifications.title })
      .from(notifications)
      .where(eq(notifications.kind, 'request.attention'));
    expect(told).toEqual([
      {
        memberId: w.firm.owner.id,
        link: `/requests/${id}`,
        title: expect.stringContaining('after 3 reminders'),
      },
    ]);
    expect((await chase('2026-12-13')).queued).toBe(1);
    expect(
      await t.db.select().from(notifications).where(eq(notifications.kind, 'request.attention')),
    ).toHaveLength(1);
    expect(await stepsOf(id)).toEqual(['after:1', 'before:1', 'before:7', 'due']);

    await drain();
    const detail = await w.own.api.requests.get.query({ requestId: id });
    expect(detail.chase.needsAttentionAt).toBeInstanceOf(Date);
    expect(detail.chase.sent.map((s) => [s.step, s.day, s.delivery])).toEqual([
      ['before:7', '2026-12-03', 'sent'],
      ['before:1', '2026-12-09', 'sent'],
      ['due', '2026-12-10', 'sent'],
      ['after:1', '2026-12-13', 'sent'],
    ]);
    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(
        and(eq(systemLog.recordId, id), inArray(systemLog.action, ['request.reminder', 'request.attention'])),
      );
    expect(log.filter((l) => l.action === 'request.reminder')).toHaveLength(4);
    expect(log.filter((l) => l.action === 'request.attention')).toHaveLength(1);
    await t.db.update(requests).set({ status: 'cancelled' }).where(eq(requests.id, id));
  }, 120_000);

  it('stops when the client submits, and while paused; an answer resets the unanswered count', async () => {
    const submitted = await sentRequest('Form 16', '2026-12-10', '2026-11-20');
    const paused = await sentRequest('Rent receipts', '2026-12-10', '2026-11-20');
    const answered = await sentRequest('Insurance', '2026-12-10', '2026-11-20');
    await w.own.api.requests.updateChase.mutate({
      requestId: paused,
      schedule: { beforeDays: [7, 1], onDue: true, everyDays: 3 },
      paused: true,
    });
    expect((await w.own.api.requests.get.query({ requestId: paused })).chase).toMatchObject({
      paused: true,
      nextDay: null,
    });
    // Each waiting request but the paused one gets its week-before reminder.
    expect((await chase('2026-12-03')).queued).toBe(2);
    expect((await chase('2026-12-09')).queued).toBe(2);

    // The client answers everything of one and submits it; answers one item of another.
    const portal = w.portal.client.clientPortalRequests;
    const ref = (requestId: string) => ({ clientId: w.own.client.id, requestId });
    const items = async (requestId: string) => (await portal.get.query(ref(requestId))).items;
    for (const item of await items(submitted)) {
      await portal.answer.mutate({
        ...ref(submitted),
        itemId: item.id,
        value: item.kind === 'acknowledgement' ? true : 'ABCDE1234F',
      });
    }
    await portal.submit.mutate(ref(submitted));
    const pan = (await items(answered)).find((i) => i.key === 'pan');
    await portal.answer.mutate({ ...ref(answered), itemId: pan?.id as string, value: 'ABCDE1234F' });

    expect((await chase('2026-12-10')).queued).toBe(1);
    expect(await stepsOf(submitted)).toEqual(['before:1', 'before:7']);
    expect(await stepsOf(paused)).toEqual([]);
    // The answer came after two reminders: one since, so no flag.
    const [row] = await t.db
      .select({ needsAttentionAt: requests.needsAttentionAt })
      .from(requests)
      .where(eq(requests.id, answered));
    expect(row?.needsAttentionAt).toBeNull();
    expect((await w.own.api.requests.get.query({ requestId: answered })).chase.nextDay).toBe('2026-12-13');
  }, 120_000);
});

describe('a project’s request', () => {
  it('tells the project’s owner as well as the sender when it needs attention', async () => {
    await t.db.update(projects).set({ ownerId: w.firm.staff.id }).where(eq(projects.id, w.own.project.id));
    const made = await w.own.api.requests.create.mutate({
      clientId: w.own.client.id,
      projectId: w.own.project.id,
      title: 'Audit confirmations',
      dueDate: '2026-12-10',
      recipientIds: [w.portal.user.id],
      sections: SECTIONS,
      chase: { beforeDays: [7, 1], onDue: true, everyDays: 3 },
    });
    await t.db
      .update(requests)
      .set({ sentAt: on('2026-11-20') })
      .where(eq(requests.id, made.id));
    for (const day of ['2026-12-03', '2026-12-09', '2026-12-10']) await chase(day);
    const told = await t.db
      .select({ memberId: notifications.memberId })
      .from(notifications)
      .where(
        and(eq(notifications.kind, 'request.attention'), eq(notifications.link, `/requests/${made.id}`)),
      );
    expect(told.map((n) => n.memberId).sort()).toEqual([w.firm.owner.id, w.firm.staff.id].sort());
  }, 120_000);
});

describe('cross-org', () => {
  it('answers NOT_FOUND for another firm’s request’s schedule', async () => {
    const farUser = await seedPortalUser(t, { orgId: w.otherFirm.org.id, clientIds: [w.far.client.id] });
    const theirs = await w.far.api.requests.create.mutate({
      clientId: w.far.client.id,
      title: 'Theirs',
      dueDate: '2099-01-31',
      recipientIds: [farUser.user.id],
      sections: SECTIONS,
    });
    expect(
      await codeOf(() =>
        w.own.api.requests.updateChase.mutate({
          requestId: theirs.id,
          schedule: { beforeDays: [], onDue: false, everyDays: null },
          paused: true,
        }),
      ),
    ).toBe('NOT_FOUND');
    const [row] = await t.db.select().from(requests).where(eq(requests.id, theirs.id));
    expect(row?.chasePaused).toBe(false);
  });
});
