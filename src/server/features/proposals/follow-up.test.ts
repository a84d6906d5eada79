import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TProposalFollowUp } from '../../../domain/proposals';
import { invoiceLines, invoices, jobs, proposals, requestItems, requests, systemLog } from '../../db/schema';
import { createWorker, type TWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeAndMessageOf, codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { followUpProposal, PROPOSAL_FOLLOW_UP, registerProposalJobs } from './index';

// After acceptance, as the proposal (its template) says: the first invoice for the accepted fixed
// fees or a retainer invoice, a draft or issued, and the onboarding request from a request
// template, sent to the client's portal users or kept as a draft. A job, exactly once.

let t: TTestApp;
let worker: TWorker;
beforeAll(async () => {
  t = await createTestApp();
  registerProposalJobs(t.storage);
  worker = createWorker(
    { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
    { pollMs: 10, kinds: [PROPOSAL_FOLLOW_UP] },
  );
}, 120_000);
afterAll(() => t?.close());

const run = Math.random().toString(36).slice(2, 8);
async function drain() {
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
}

async function setup(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const bk = await api.services.create.mutate({
    name: 'Bookkeeping',
    code: `BK${randomBytes(2).toString('hex')}`,
    frequency: 'monthly',
    dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
  });
  const advice = await api.services.create.mutate({
    name: 'Advice',
    code: `AD${randomBytes(2).toString('hex')}`,
    frequency: 'monthly',
    dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
  });
  const onboarding = await api.requests.templates.save.mutate({
    name: 'Onboarding documents',
    sections: [
      {
        title: 'Identity',
        items: [
          { key: 'id', kind: 'file', label: 'Proof of identity' },
          { key: 'bank', kind: 'file', label: 'Last bank statement' },
        ],
      },
    ],
  });
  return { firm, api, bk, advice, onboarding };
}

type TSetup = Awaited<ReturnType<typeof setup>>;

/** A proposal with this follow-up, sent to one signer and signed through the public procedures. */
async function accepted(s: TSetup, followUp: Partial<TProposalFollowUp>, clientId?: string) {
  const client =
    clientId ??
    (
      await s.api.clients.create.mutate({
        code: `F${randomBytes(3).toString('hex')}`,
        name: `Follow ${randomBytes(2).toString('hex')} Ltd`,
        prospect: true,
      })
    ).id;
  const email = `follow-${randomBytes(3).toString('hex')}-${run}@example.test`;
  const title = `Engagement ${randomBytes(3).toString('hex')}`;
  const { id } = await s.api.proposals.create.mutate({
    clientId: client,
    title,
    letterHtml: '<p>Dear {{contact_name}}</p>{{fees}}',
    packages: [
      {
        name: 'Standard',
        services: [
          { serviceId: s.bk.id, billingMode: 'fixed', fee: '1500', feeTrigger: 'manual' },
          { serviceId: s.advice.id, billingMode: 'hourly', fee: '' },
        ],
      },
    ],
    followUp,
    expiresOn: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    signers: [{ name: 'Mira Das', email }],
  });
  await s.api.proposals.send.mutate({ proposalId: id });
  const mail = (await t.outbox()).filter((m) => m.to.includes(email) && m.subject.includes(title)).at(-1);
  const m = mail?.notes.link?.match(/\/sign\/([0-9a-f-]+)\/([0-9a-f-]+)\?t=([A-Za-z0-9_-]+)$/);
  if (!m) throw new Error('no link');
  const link = { proposalId: m[1] as string, signerId: m[2] as string, token: m[3] as string };
  const pub = t.client();
  await pub.signing.requestCode.mutate(link);
  const code = await vi.waitFor(async () => {
    const c = (await t.outbox())
      .filter((x) => x.to.includes(email) && x.subject.includes('Your code'))
      .at(-1);
    if (!c) throw new Error('no code yet');
    return c.notes.code as string;
  });
  const { session } = await pub.signing.verifyCode.mutate({ ...link, code });
  await pub.signing.sign.mutate({
    ...link,
    session,
    packageIndex: 0,
    signature: { kind: 'typed', text: 'Mira Das' },
    consent: true,
  });
  return { id, clientId: client, title };
}

async function proposalRow(orgId: string, id: string) {
  const [p] = await t.db
    .select()
    .from(proposals)
    .where(and(eq(proposals.orgId, orgId), eq(proposals.id, id)));
  if (!p) throw new Error('no proposal');
  return p;
}

describe('after acceptance', () => {
  it('issues the first invoice for the accepted fixed fees and sends the onboarding request, once', async () => {
    const s = await setup('Follow & Co');
    const client = await s.api.clients.create.mutate({ code: `C${run}`, name: 'Portal Client Ltd' });
    const user = await seedPortalUser(t, { orgId: s.firm.org.id, clientIds: [client.id], name: 'Mira Das' });
    const { id } = await accepted(
      s,
      { billing: 'fees_issued', requestTemplateId: s.onboarding.id, requestDueDays: 10 },
      client.id,
    );
    // Nothing yet: the job does it, committed with the acceptance.
    expect((await proposalRow(s.firm.org.id, id)).followedUpAt).toBeNull();
    await drain();
    const p = await proposalRow(s.firm.org.id, id);
    expect(p.followedUpAt).not.toBeNull();
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, p.invoiceId ?? ''));
    expect(invoice?.status).not.toBe('draft');
    expect(invoice?.number).toBeTruthy();
    expect(invoice?.clientId).toBe(client.id);
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ''));
    // The fixed fee alone (advice is billed by the hour): one line, the fee's current period.
    expect(lines).toHaveLength(1);
    expect(lines[0]?.engagementId).toBeTruthy();
    expect(lines[0]?.amount).toBe(150_000);
    const [request] = await t.db
      .select()
      .from(requests)
      .where(eq(requests.id, p.requestId ?? ''));
    expect(request?.status).toBe('sent');
    expect(request?.title).toBe('Onboarding documents');
    const items = await t.db
      .select()
      .from(requestItems)
      .where(eq(requestItems.requestId, request?.id ?? ''));
    expect(items.map((i) => i.label)).toEqual(['Proof of identity', 'Last bank statement']);
    const mails = (await t.outbox()).filter((m) => m.to.includes(user.user.email));
    expect(mails.some((m) => m.subject.includes('Onboarding documents'))).toBe(true);
    // The staff page links to both.
    const shown = await s.api.proposals.get.query({ proposalId: id });
    expect(shown.invoice?.id).toBe(invoice?.id);
    expect(shown.request).toMatchObject({ id: request?.id, status: 'sent' });
    // Exactly once: the job again, or run by hand, makes nothing more.
    await followUpProposal(t.db, t, { orgId: s.firm.org.id, proposalId: id, engagementIds: [] });
    await drain();
    const all = await t.db.select().from(invoices).where(eq(invoices.clientId, client.id));
    expect(all).toHaveLength(1);
    const reqs = await t.db.select().from(requests).where(eq(requests.clientId, client.id));
    expect(reqs).toHaveLength(1);
    const log = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, s.firm.org.id), eq(systemLog.recordId, id)));
    expect(log.find((l) => l.action === 'proposal.followUp')?.summary).toMatch(/issued the first invoice/);
  });

  it('drafts a retainer invoice and keeps the request a draft when nobody uses the portal', async () => {
    const s = await setup('Retain LLP');
    const { id, clientId } = await accepted(s, {
      billing: 'retainer_draft',
      retainer: '750.50',
      requestTemplateId: s.onboarding.id,
    });
    await drain();
    const p = await proposalRow(s.firm.org.id, id);
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, p.invoiceId ?? ''));
    expect(invoice?.status).toBe('draft');
    expect(invoice?.clientId).toBe(clientId);
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice?.id ?? ''));
    expect(lines.map((l) => [l.description.startsWith('Retainer: '), l.amount, l.engagementId])).toEqual([
      [true, 75_050, null],
    ]);
    const [request] = await t.db
      .select()
      .from(requests)
      .where(eq(requests.id, p.requestId ?? ''));
    expect(request?.status).toBe('draft');
  });

  it('does nothing when the proposal asks for nothing (no job)', async () => {
    const s = await setup('Plain Ltd');
    const { id } = await accepted(s, {});
    const queued = await t.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `${PROPOSAL_FOLLOW_UP}:${id}`));
    expect(queued).toHaveLength(0);
    const p = await proposalRow(s.firm.org.id, id);
    expect(p.followUp.billing).toBe('none');
    expect(p.invoiceId).toBeNull();
  });

  it('keeps the choice on the template, copies it to a new proposal, and refuses what is not valid', async () => {
    const s = await setup('Template Ltd');
    const other = await setup('Other Firm Ltd');
    const base = {
      name: 'With onboarding',
      letterHtml: '<p>Hello</p>',
      packages: [
        { name: 'One', services: [{ serviceId: s.bk.id, billingMode: 'fixed' as const, fee: '100' }] },
      ],
    };
    const tpl = await s.api.proposals.templates.save.mutate({
      ...base,
      followUp: { billing: 'retainer_issued', retainer: '300', requestTemplateId: s.onboarding.id },
    });
    expect(tpl.followUp).toEqual({
      billing: 'retainer_issued',
      retainer: '300.00',
      requestTemplateId: s.onboarding.id,
      requestDueDays: 14,
    });
    const prospect = await s.api.clients.create.mutate({ code: `T${run}`, name: 'New Co', prospect: true });
    const draft = await s.api.proposals.fromTemplate.query({ clientId: prospect.id, templateId: tpl.id });
    expect(draft.followUp).toEqual(tpl.followUp);
    // Another firm's request template is not found; a retainer needs its amount.
    expect(
      await codeOf(
        s.api.proposals.templates.save.mutate({
          ...base,
          followUp: { billing: 'none', requestTemplateId: other.onboarding.id },
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeAndMessageOf(
        s.api.proposals.templates.save.mutate({ ...base, followUp: { billing: 'retainer_draft' } }),
      ),
    ).toContain('A retainer invoice needs its amount');
    const options = await s.api.proposals.requestTemplateOptions.query();
    expect(options).toEqual([{ id: s.onboarding.id, name: 'Onboarding documents' }]);
  });
});
