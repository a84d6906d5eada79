import { createServer, type IncomingMessage, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../../domain/webhooks';
import { invoices, jobs, notifications, webhookDeliveries, webhookSubscriptions } from '../../db/schema';
import { registerJob } from '../../jobs/registry';
import { createWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';
import { deliverWebhook, registerWebhookJobs, resumeStaleDeliveries, WEBHOOK_DELIVER } from '.';
import { isPrivateAddress, type TResolver, targetRefusal, verifyWebhook } from './signing';

type THit = { headers: IncomingMessage['headers']; body: string };

let t: TTestApp;
let receiver: Server;
let target: string;
const hits: THit[] = [];
/** What the receiver answers next: a status per request, 200 once they run out. */
let answers: number[] = [];

beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  target = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await t?.close();
});
beforeEach(() => {
  hits.length = 0;
  answers = [];
});

const ctx = () => ({ db: t.db, config: t.config });

async function deliveriesOf(subscriptionId: string) {
  return t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId));
}

describe('webhooks', () => {
  it('signs each delivery the Standard Webhooks way: the reference library verifies it', async () => {
    const firm = await t.seedFirm('Hooks & Co');
    const api = t.client(firm.owner.token);
    const { id, secret } = await api.webhooks.create.mutate({ url: target, events: ['client.created'] });
    expect(secret).toMatch(/^whsec_/);
    const [stored] = await t.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
    expect(stored?.secretSealed).not.toContain(secret.slice(6));

    const client = await api.clients.create.mutate({ code: 'WH-1', name: 'Asha Rao' });
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ eventType: 'client.created', status: 'pending' });
    await deliverWebhook(delivery?.id ?? '', ctx());

    expect(hits).toHaveLength(1);
    const hit = hits[0] as THit;
    const headers = {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    };
    expect(new Webhook(secret).verify(hit.body, headers)).toMatchObject({
      type: 'client.created',
      data: { id: client.id, code: 'WH-1', name: 'Asha Rao' },
    });
    expect(() => new Webhook(secret).verify(`${hit.body} `, headers)).toThrow();
    expect(
      verifyWebhook(
        secret,
        {
          id: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          signature: headers['webhook-signature'],
        },
        hit.body,
      ),
    ).toBe(true);
    const [done] = await deliveriesOf(id);
    expect(done).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      responseBody: 'thanks',
    });
    // Unsubscribed events are not sent.
    await api.clients.update.mutate({ clientId: client.id, data: { code: 'WH-1', name: 'Asha R.' } });
    expect(await deliveriesOf(id)).toHaveLength(1);
  });

  it('retries exactly on schedule for a day, then pauses the subscription and tells its owner', async () => {
    const firm = await t.seedFirm('Flaky & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.webhooks.create.mutate({
      url: target,
      events: ['task.completed', 'task.status_changed'],
    });
    const task = await api.tasks.create.mutate({ title: 'File the return' });
    await api.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' });
    const rows = await deliveriesOf(id);
    expect(rows.map((r) => r.eventType).sort()).toEqual(['task.completed', 'task.status_changed']);
    const delivery = rows.find((r) => r.eventType === 'task.completed');
    if (!delivery) throw new Error('no delivery');

    answers = WEBHOOK_RETRY_DELAYS_MS.map(() => 500);
    let clock = new Date('2026-12-01T00:00:00Z').getTime();
    const runAts: number[] = [];
    for (let attempt = 1; attempt <= WEBHOOK_RETRY_DELAYS_MS.length; attempt++) {
      await deliverWebhook(delivery.id, ctx(), () => new Date(clock));
      const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
      expect(row?.attempts).toBe(attempt);
      if (attempt < WEBHOOK_RETRY_DELAYS_MS.length) {
        expect(row?.status).toBe('pending');
        const next = row?.nextAttemptAt?.getTime() ?? 0;
        runAts.push(next - clock);
        const [job] = await t.db
          .select()
          .from(jobs)
          .where(
            and(eq(jobs.kind, WEBHOOK_DELIVER), eq(jobs.dedupeKey, `webhook:${delivery.id}:${attempt + 1}`)),
          );
        expect(job?.runAt.getTime()).toBe(next);
        clock = next;
      } else {
        expect(row).toMatchObject({ status: 'failed', responseStatus: 500 });
      }
    }
    expect(runAts).toEqual(WEBHOOK_RETRY_DELAYS_MS.slice(1));
    expect(runAts.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600_000);
    expect(hits).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length);
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);

    const [sub] = await t.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
    expect(sub?.pausedAt).not.toBeNull();
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.orgId, firm.org.id), eq(notifications.kind, 'webhook.paused')));
    expect(told.map((n) => n.memberId)).toEqual([firm.owner.id]);
    // The screen's list counts the subscription's failed deliveries (its subquery once compared
    // each delivery's subscription with the delivery's own id, and counted none).
    expect((await api.webhooks.list.query()).find((w) => w.id === id)?.failed).toBe(1);
    // A paused subscription gets no new events.
    await api.clients.create.mutate({ code: 'FL-2', name: 'Later' });
    await api.tasks.setStatus.mutate({ taskId: task.id, status: 'IN_PROGRESS' });
    expect(await deliveriesOf(id)).toHaveLength(2);
  });

  it('sends a delivery once however many instances run the queue', async () => {
    const firm = await t.seedFirm('Twice & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.webhooks.create.mutate({ url: target, events: ['client.created'] });
    for (let i = 0; i < 5; i++) await api.clients.create.mutate({ code: `TW-${i}`, name: `Client ${i}` });
    registerWebhookJobs();
    const jobCtx = { ...ctx(), mailer: t.mailer, log: { info() {}, warn() {}, error() {} } };
    const workers = ['a', 'b', 'c'].map((name) =>
      createWorker(jobCtx, { pollMs: 10, batchSize: 3, kinds: [WEBHOOK_DELIVER], id: `instance-${name}` }),
    );
    const drain = async (w: (typeof workers)[number]) => {
      while ((await w.tick()) > 0) {}
    };
    await Promise.all(workers.map(drain));
    // A job run again (a lease that ran out, a replayed job) finds the delivery already done.
    for (const row of await deliveriesOf(id)) await deliverWebhook(row.id, ctx());
    // (Other tests' deliveries still waiting were sent too: only this firm's count here.)
    const ours = new Set((await deliveriesOf(id)).map((r) => r.messageId));
    const mine = hits.filter((h) => ours.has(String(h.headers['webhook-id'])));
    expect(mine).toHaveLength(5);
    expect(new Set(mine.map((h) => h.headers['webhook-id'])).size).toBe(5);
    expect((await deliveriesOf(id)).every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
    registerJob(WEBHOOK_DELIVER, async () => {});
    registerWebhookJobs();
  });

  it('sends again a delivery whose worker stopped mid-attempt, and never one still being sent', async () => {
    const firm = await t.seedFirm('Crash & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.webhooks.create.mutate({ url: target, events: ['client.created'] });
    await api.clients.create.mutate({ code: 'CR-1', name: 'Left mid-send' });
    await api.clients.create.mutate({ code: 'CR-2', name: 'Being sent' });
    const [left, busy] = (await deliveriesOf(id)).sort((a, b) => a.id.localeCompare(b.id));
    if (!left || !busy) throw new Error('two deliveries expected');
    // Claimed by workers: one that died ten minutes ago, one sending right now.
    const ago = new Date(Date.now() - 10 * 60_000);
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, lastAttemptAt: ago })
      .where(eq(webhookDeliveries.id, left.id));
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, lastAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, busy.id));

    expect(await resumeStaleDeliveries(t.db)).toBeGreaterThanOrEqual(1);
    const resumed = (await t.db.select().from(jobs).where(eq(jobs.kind, WEBHOOK_DELIVER)))
      .map((j) => j.dedupeKey ?? '')
      .filter((k) => k.includes(':resume:'));
    expect(resumed).toContain(`webhook:${left.id}:resume:1`);
    expect(resumed.some((k) => k.startsWith(`webhook:${busy.id}:`))).toBe(false);

    await deliverWebhook(left.id, ctx());
    await deliverWebhook(busy.id, ctx());
    const sent = hits.map((h) => String(h.headers['webhook-id']));
    expect(sent).toEqual([left.messageId]);
    const after = await deliveriesOf(id);
    expect(after.find((r) => r.id === left.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(after.find((r) => r.id === busy.id)).toMatchObject({ status: 'sending', attempts: 1 });
  });

  it('replays a delivery with the same id, sends a test event, and keeps another firm out', async () => {
    const firm = await t.seedFirm('Replay & Co');
    const other = await t.seedFirm('Elsewhere & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.webhooks.create.mutate({ url: target, events: ['client.created'] });
    const { deliveryId } = await api.webhooks.test.mutate({ subscriptionId: id });
    await deliverWebhook(deliveryId, ctx());
    const { deliveryId: again } = await api.webhooks.replay.mutate({ deliveryId });
    await deliverWebhook(again, ctx());
    expect(hits.map((h) => JSON.parse(h.body).type)).toEqual(['webhook.test', 'webhook.test']);
    expect(hits[0]?.headers['webhook-id']).toBe(hits[1]?.headers['webhook-id']);
    const log = await api.webhooks.deliveries.query({ subscriptionId: id, page: 1, pageSize: 20 });
    expect(log.rows.map((r) => [r.status, r.responseStatus])).toEqual([
      ['succeeded', 200],
      ['succeeded', 200],
    ]);

    const theirs = t.client(other.owner.token);
    await expect(
      theirs.webhooks.deliveries.query({ subscriptionId: id, page: 1, pageSize: 20 }),
    ).rejects.toThrow(/does not exist/);
    await expect(theirs.webhooks.replay.mutate({ deliveryId })).rejects.toThrow(/does not exist/);
    await expect(theirs.webhooks.test.mutate({ subscriptionId: id })).rejects.toThrow(/does not exist/);
    await seedClient(t, other.org.id);
    expect(await deliveriesOf(id)).toHaveLength(2);
    await expect(t.client(firm.staff.token).webhooks.list.query()).rejects.toThrow(/permission/);
  });
});

describe('events', () => {
  it('a project completed, with what it is about', async () => {
    const firm = await t.seedFirm('Projects & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.webhooks.create.mutate({ url: target, events: ['project.completed'] });
    const client = await seedClient(t, firm.org.id, { name: 'Rao Traders' });
    const project = await api.projects.create.mutate({ clientId: client.id, name: 'Audit FY26' });
    await api.projects.setStatus.mutate({ projectId: project.id, status: 'IN_PROGRESS' });
    expect(await deliveriesOf(id)).toHaveLength(0);
    await api.projects.setStatus.mutate({ projectId: project.id, status: 'COMPLETED' });
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.payload).toMatchObject({
      type: 'project.completed',
      data: { id: project.id, name: 'Audit FY26', clientId: client.id },
    });
  });
});

describe('invoice events', () => {
  it('an invoice issued, then paid by a payment', async () => {
    const firm = await t.seedFirm('Billing & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.webhooks.create.mutate({
      url: target,
      events: ['invoice.issued', 'invoice.paid'],
    });
    const client = await seedClient(t, firm.org.id, { name: 'Paying client' });
    const draft = await api.billing.invoices.create.mutate({ clientId: client.id });
    const line = {
      description: 'Audit',
      serviceId: null,
      taxCode: '',
      quantityMilli: 1000,
      rate: 150_000,
      discount: 0,
      taxRateBp: 0,
    };
    await api.billing.invoices.update.mutate({ invoiceId: draft.id, lines: [line], notes: '', terms: '' });
    await api.billing.invoices.issue.mutate({ invoiceId: draft.id });
    const [issued] = await t.db
      .select({ total: invoices.total })
      .from(invoices)
      .where(eq(invoices.id, draft.id));
    if (!issued) throw new Error('no invoice');
    await api.billing.payments.record.mutate({
      clientId: client.id,
      receivedOn: '2026-05-01',
      method: 'upi',
      amount: issued.total,
      allocations: [{ invoiceId: draft.id, amount: issued.total }],
    });
    const sent = (await deliveriesOf(id)).map((d) => d.payload as { type: string; data: { id: string } });
    expect(sent.map((p) => [p.type, p.data.id]).sort()).toEqual([
      ['invoice.issued', draft.id],
      ['invoice.paid', draft.id],
    ]);
  });
});

describe('webhook targets', () => {
  it('refuse private and loopback addresses unless the operator allows them', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.9',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
    expect(await targetRefusal('http://127.0.0.1:9/x', false)).toMatch(/private or local/);
    expect(await targetRefusal('http://localhost/x', false)).toMatch(/private or local|could not be found/);
    expect(await targetRefusal('http://[::1]/x', false)).toMatch(/private or local/);
    expect(await targetRefusal('http://127.0.0.1:9/x', true)).toBeNull();
    expect(await targetRefusal('ftp://example.test/x', true)).toMatch(/http/);

    const strict = await createTestApp();
    try {
      const firm = await strict.seedFirm('Strict & Co');
      await expect(
        strict
          .client(firm.owner.token)
          .webhooks.create.mutate({ url: 'http://127.0.0.1:8080/hook', events: ['client.created'] }),
      ).rejects.toThrow(/private or local/);
    } finally {
      await strict.close();
    }
  }, 120_000);

  it('pin the address they checked: a name resolving to 127.0.0.1 is refused, and no second lookup is made', async () => {
    // A rebinding DNS: a public address for the check, loopback for any later lookup.
    const lookups: string[] = [];
    const rebinding: TResolver = async (host) => {
      lookups.push(host);
      return [{ address: lookups.length === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const toLoopback: TResolver = async (host) => {
      lookups.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    expect(await targetRefusal('http://rebind.test/x', false, toLoopback)).toMatch(/private or local/);

    const firm = await t.seedFirm('Pinned & Co');
    const api = t.client(firm.owner.token);
    const port = new URL(target).port;
    const { id } = await api.webhooks.create.mutate({
      url: `http://hooks.pinned.test:${port}/hook`,
      events: ['client.created'],
    });
    await api.clients.create.mutate({ code: 'PIN-1', name: 'Pinned client' });
    const [delivery] = await deliveriesOf(id);
    if (!delivery) throw new Error('no delivery');

    // The operator forbids private targets: a name that resolves to loopback is never called.
    const strict = { db: t.db, config: { ...t.config, webhooks: { allowPrivate: false } } };
    lookups.length = 0;
    await deliverWebhook(delivery.id, strict, undefined, toLoopback);
    expect(hits).toHaveLength(0);
    expect(lookups).toEqual(['hooks.pinned.test']);
    const [refused] = await deliveriesOf(id);
    expect(refused?.error).toMatch(/private or local/);

    // Allowed: the attempt connects to exactly the address the check resolved (a name no DNS
    // knows, so any second lookup would fail), once, with the URL's host in the Host header.
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'pending' })
      .where(eq(webhookDeliveries.id, delivery.id));
    lookups.length = 0;
    await deliverWebhook(delivery.id, ctx(), undefined, toLoopback);
    expect(lookups).toEqual(['hooks.pinned.test']);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.headers.host).toBe(`hooks.pinned.test:${port}`);
    expect((await deliveriesOf(id))[0]?.status).toBe('succeeded');

    // A rebinding name checked public is called on that public address, never re-resolved to loopback.
    lookups.length = 0;
    const pinnedOnce = await import('./signing').then((m) =>
      m.pinTarget('http://rebind.test/x', false, rebinding),
    );
    expect(pinnedOnce).toMatchObject({ target: { address: '93.184.216.34' } });
    expect(lookups).toHaveLength(1);
  });
});
