import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TProposalTemplateSave } from '../../../domain/proposals';
import { clientServices, notifications, proposalSigners, proposals, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeAndMessageOf, codeOf } from '../../test/outcome';
import { tampered } from '../../test/tamper';
import { sendProposalReminders } from './index';

// Proposals through the router, as the browser calls them: a template, a proposal for a prospect
// with two signers in turn, the mailed link and code, signing, and the engagements that follow;
// a tampered, foreign, withdrawn or expired link is refused, and another firm sees nothing.

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

const run = Math.random().toString(36).slice(2, 8);

async function setup(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const bk = await api.services.create.mutate({
    name: 'Bookkeeping',
    code: 'BK',
    frequency: 'monthly',
    dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
    defaultFee: '2000',
  });
  const tax = await api.services.create.mutate({
    name: 'Tax return',
    code: 'TR',
    frequency: 'yearly',
    dueDateRule: { dayOfMonth: 31, monthsAfterPeriod: 4 },
  });
  const prospect = await api.clients.create.mutate({
    code: `P${run}${name.length}`,
    name: `${name} Prospect Ltd`,
    email: `prospect-${run}@example.test`,
    prospect: true,
  });
  return { firm, api, bk, tax, prospect };
}

const template = (bk: string, tax: string): TProposalTemplateSave => ({
  name: 'Small business',
  letterHtml:
    '<p>Dear {{contact_name}},</p><p>{{firm_name}} will serve {{client_name}}:</p>{{services}}<p>Fees:</p>{{fees}}<p>Valid until {{expiry_date}}.</p><script>alert(1)</script>',
  packages: [
    {
      name: 'Basic',
      services: [{ serviceId: bk, billingMode: 'fixed', fee: '1500', feeTrigger: 'period_start' }],
    },
    {
      name: 'Complete',
      services: [
        { serviceId: bk, billingMode: 'fixed', fee: '2500', feeTrigger: 'period_start' },
        { serviceId: tax, billingMode: 'hourly', fee: '' },
      ],
    },
  ],
  addOns: [{ serviceId: tax, billingMode: 'fixed', fee: '800', description: 'Filing only' }],
  terms: 'Fees are due within 14 days.',
});

function linkOf(url: string) {
  const m = url.match(/\/sign\/([0-9a-f-]+)\/([0-9a-f-]+)\?t=([A-Za-z0-9_-]+)$/);
  if (!m) throw new Error(`not a signing link: ${url}`);
  return { proposalId: m[1] as string, signerId: m[2] as string, token: m[3] as string };
}

async function mailTo(email: string, subjectPart: string) {
  const all = await t.outbox();
  return all.filter((m) => m.to.includes(email) && m.subject.includes(subjectPart));
}

/** A signer's way in: the link from the mail, a code from the next mail, the session. */
async function signIn(email: string, title: string) {
  const [mail] = (await mailTo(email, title)).slice(-1);
  if (!mail?.notes.link) throw new Error(`no proposal mail to ${email}`);
  const link = linkOf(mail.notes.link);
  const pub = t.client();
  await pub.signing.open.mutate(link);
  const before = (await mailTo(email, 'Your code')).length;
  await pub.signing.requestCode.mutate(link);
  const code = await vi.waitFor(async () => {
    const codes = await mailTo(email, 'Your code');
    if (codes.length <= before) throw new Error('no code yet');
    return codes.at(-1)?.notes.code as string;
  });
  const { session } = await pub.signing.verifyCode.mutate({ ...link, code });
  return { link, session, pub };
}

describe('a proposal for a prospect, signed by two in turn', () => {
  it('writes, previews, sends, signs and creates the engagements', async () => {
    const { firm, api, bk, tax, prospect } = await setup('Sign & Co');
    // Prospects stay out of the client list unless asked for.
    const listed = await api.clients.list.query({});
    expect(listed.rows.map((r) => r.id)).not.toContain(prospect.id);
    const only = await api.clients.list.query({ prospects: 'only' });
    expect(only.rows.map((r) => r.id)).toEqual([prospect.id]);

    const tpl = await api.proposals.templates.save.mutate(template(bk.id, tax.id));
    expect(tpl.letterHtml).not.toContain('<script>');
    expect(
      await codeAndMessageOf(
        api.proposals.templates.save.mutate({ ...template(bk.id, tax.id), letterHtml: '<p>{{nope}}</p>' }),
      ),
    ).toContain('{{nope}}');

    const draft = await api.proposals.fromTemplate.query({ clientId: prospect.id, templateId: tpl.id });
    const title = `Engagement ${run}`;
    const { id } = await api.proposals.create.mutate({
      ...draft,
      title,
      signingOrder: 'sequential',
      signers: [
        { name: 'Asha Rao', email: `asha-${run}@example.test` },
        { name: 'Vikram Rao', email: `vikram-${run}@example.test` },
      ],
    });
    const detail = await api.proposals.get.query({ proposalId: id });
    expect(detail.status).toBe('draft');
    expect(detail.preview.letterHtml).toContain('Dear Asha Rao');
    expect(detail.preview.letterHtml).toContain('<li>Basic: Bookkeeping</li>');
    expect(detail.preview.letterHtml).toContain('Sign &amp; Co');
    expect(detail.preview.packages[1]?.services.map((s) => s.name)).toEqual(['Bookkeeping', 'Tax return']);

    await api.proposals.send.mutate({ proposalId: id });
    expect(
      await codeOf(
        api.proposals.update.mutate({
          ...draft,
          proposalId: id,
          title,
          signers: [{ name: 'X Y', email: 'x@example.test' }],
        }),
      ),
    ).toBe('CONFLICT');
    // In turn: only the first signer is mailed.
    expect(await mailTo(`asha-${run}@example.test`, title)).toHaveLength(1);
    expect(await mailTo(`vikram-${run}@example.test`, title)).toHaveLength(0);

    const asha = await signIn(`asha-${run}@example.test`, title);
    const view = await asha.pub.signing.view.query({ ...asha.link, session: asha.session });
    expect(view.myTurn).toBe(true);
    expect(view.letterHtml).toContain('Dear Asha Rao');
    await asha.pub.signing.sign.mutate({
      ...asha.link,
      session: asha.session,
      packageIndex: 1,
      addOnIndexes: [0],
      signature: { kind: 'typed', text: 'Asha Rao' },
      consent: true,
    });
    // The second signer is asked now, and signs the choice the first made.
    const vikram = await signIn(`vikram-${run}@example.test`, title);
    const v2 = await vikram.pub.signing.view.query({ ...vikram.link, session: vikram.session });
    expect(v2.chosen).toEqual({ packageIndex: 1, addOnIndexes: [0] });
    await vikram.pub.signing.sign.mutate({
      ...vikram.link,
      session: vikram.session,
      packageIndex: 0,
      signature: { kind: 'drawn', image: 'data:image/png;base64,iVBORw0KGgo=' },
      consent: true,
    });

    const done = await api.proposals.get.query({ proposalId: id });
    expect(done.status).toBe('accepted');
    expect(done.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['created', 'sent', 'opened', 'code_sent', 'verified', 'signed', 'accepted']),
    );
    expect(done.events.find((e) => e.kind === 'signed')?.ip).toBeTruthy();
    // The prospect is a client now, with the chosen package's and add-on's engagements.
    expect((await api.clients.list.query({})).rows.map((r) => r.id)).toContain(prospect.id);
    const engaged = await t.db
      .select({
        serviceId: clientServices.serviceId,
        fee: clientServices.fee,
        mode: clientServices.billingMode,
      })
      .from(clientServices)
      .where(and(eq(clientServices.orgId, firm.org.id), eq(clientServices.clientId, prospect.id)));
    expect(engaged).toEqual(
      expect.arrayContaining([
        { serviceId: bk.id, fee: '2500.00', mode: 'fixed' },
        { serviceId: tax.id, fee: null, mode: 'hourly' },
        { serviceId: tax.id, fee: '800.00', mode: 'fixed' },
      ]),
    );
    expect(engaged).toHaveLength(3);
    const told = await t.db.select().from(notifications).where(eq(notifications.memberId, firm.owner.id));
    expect(told.some((n) => n.kind === 'proposal.answered')).toBe(true);
    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(eq(systemLog.orgId, firm.org.id));
    expect(log.map((l) => l.action)).toEqual(
      expect.arrayContaining([
        'proposal.create',
        'proposal.send',
        'proposal.sign',
        'proposal.accept',
        'proposal_template.create',
      ]),
    );
    // A used link stays closed for signing.
    expect(
      await codeOf(
        asha.pub.signing.sign.mutate({
          ...asha.link,
          session: asha.session,
          packageIndex: 0,
          signature: { kind: 'typed', text: 'Asha Rao' },
          consent: true,
        }),
      ),
    ).not.toBe('ok');
  });
});

describe('links, declining, withdrawing, expiry and other firms', () => {
  it('refuses a changed, foreign, withdrawn or expired link; a decline keeps its reason', async () => {
    const { api, bk, tax, prospect } = await setup('Guard & Co');
    const other = await setup('Elsewhere LLP');
    const tpl = await api.proposals.templates.save.mutate(template(bk.id, tax.id));
    const draft = await api.proposals.fromTemplate.query({ clientId: prospect.id, templateId: tpl.id });
    const make = async (title: string, email: string) => {
      const { id } = await api.proposals.create.mutate({
        ...draft,
        title,
        signers: [{ name: 'Mira Das', email }],
      });
      await api.proposals.send.mutate({ proposalId: id });
      return id;
    };
    const a = `A ${run}`;
    const b = `B ${run}`;
    const idA = await make(a, `mira-a-${run}@example.test`);
    const idB = await make(b, `mira-b-${run}@example.test`);
    const linkA = linkOf((await mailTo(`mira-a-${run}@example.test`, a))[0]?.notes.link ?? '');
    const linkB = linkOf((await mailTo(`mira-b-${run}@example.test`, b))[0]?.notes.link ?? '');
    const pub = t.client();
    // A changed secret, another proposal's signer, a made-up id: the same NOT_FOUND.
    expect(await codeOf(pub.signing.open.mutate({ ...linkA, token: tampered(linkA.token) }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(pub.signing.open.mutate({ ...linkA, signerId: linkB.signerId }))).toBe('NOT_FOUND');
    expect(await codeOf(pub.signing.open.mutate({ ...linkB, proposalId: idA }))).toBe('NOT_FOUND');
    expect(await codeOf(pub.signing.open.mutate({ ...linkA, token: 'short' }))).toBe('BAD_REQUEST');
    // A wrong code is counted; a made-up session is refused.
    await pub.signing.requestCode.mutate(linkA);
    expect(await codeAndMessageOf(pub.signing.verifyCode.mutate({ ...linkA, code: '000000' }))).toMatch(
      /not right|expired/,
    );
    expect(await codeOf(pub.signing.view.query({ ...linkA, session: 'x'.repeat(32) }))).toBe('FORBIDDEN');

    // Another firm sees none of it, and cannot send for this firm's client.
    expect(await codeOf(other.api.proposals.get.query({ proposalId: idA }))).toBe('NOT_FOUND');
    expect(await codeOf(other.api.proposals.withdraw.mutate({ proposalId: idA }))).toBe('NOT_FOUND');
    expect(
      await codeOf(
        other.api.proposals.create.mutate({
          ...draft,
          title: 'x',
          signers: [{ name: 'Xi Yu', email: 'x@example.test' }],
        }),
      ),
    ).toBe('NOT_FOUND');
    expect((await other.api.proposals.list.query({})).total).toBe(0);
    // Another firm's service in a template is refused.
    expect(await codeOf(other.api.proposals.templates.save.mutate(template(bk.id, tax.id)))).toBe(
      'BAD_REQUEST',
    );
    // Staff without proposals.manage are refused.
    const { firm } = await setup('Staffed & Co');
    expect(await codeOf(t.client(firm.staff.token).proposals.list.query({}))).toBe('FORBIDDEN');

    // Declined with a reason.
    const mira = await signIn(`mira-a-${run}@example.test`, a);
    await mira.pub.signing.decline.mutate({
      ...mira.link,
      session: mira.session,
      reason: 'We chose another firm',
    });
    const declined = await api.proposals.get.query({ proposalId: idA });
    expect(declined.status).toBe('declined');
    expect(declined.declineReason).toBe('We chose another firm');

    // Withdrawn: the link dies.
    await api.proposals.withdraw.mutate({ proposalId: idB, reason: 'Fees changed' });
    expect(await codeOf(pub.signing.open.mutate(linkB))).toBe('NOT_FOUND');

    // Expired: the link says so, and the list shows Expired.
    const c = `C ${run}`;
    const idC = await make(c, `mira-c-${run}@example.test`);
    const linkC = linkOf((await mailTo(`mira-c-${run}@example.test`, c))[0]?.notes.link ?? '');
    await t.db.update(proposals).set({ expiresOn: '2020-01-01' }).where(eq(proposals.id, idC));
    expect(await codeAndMessageOf(pub.signing.open.mutate(linkC))).toMatch(
      /^FORBIDDEN: This proposal expired/,
    );
    const expired = await api.proposals.list.query({ status: 'expired' });
    expect(expired.rows.map((r) => r.id)).toEqual([idC]);
    // A past expiry date cannot be sent.
    const { id: late } = await api.proposals.create.mutate({
      ...draft,
      title: 'Late',
      expiresOn: '2020-01-01',
      signers: [{ name: 'Mira Das', email: 'late@example.test' }],
    });
    expect(await codeOf(api.proposals.send.mutate({ proposalId: late }))).toBe('BAD_REQUEST');
  });
});

describe('reminders until answered', () => {
  it('mails again the signers who have not answered, with a fresh link, a few times, then stops', async () => {
    const { api, bk, tax, prospect } = await setup('Remind & Co');
    const tpl = await api.proposals.templates.save.mutate(template(bk.id, tax.id));
    const draft = await api.proposals.fromTemplate.query({ clientId: prospect.id, templateId: tpl.id });
    const title = `Remind ${run}`;
    const { id } = await api.proposals.create.mutate({
      ...draft,
      title,
      signers: [
        { name: 'Ira Sen', email: `ira-${run}@example.test` },
        { name: 'Dev Sen', email: `dev-${run}@example.test` },
      ],
    });
    await api.proposals.send.mutate({ proposalId: id });
    const ira = await signIn(`ira-${run}@example.test`, title);
    await ira.pub.signing.sign.mutate({
      ...ira.link,
      session: ira.session,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Ira Sen' },
      consent: true,
    });
    const oldLink = linkOf((await mailTo(`dev-${run}@example.test`, title)).at(-1)?.notes.link ?? '');
    // Not yet due: nothing.
    expect((await sendProposalReminders(t.db, t.config)).reminded).toBe(0);
    const back = async () =>
      t.db
        .update(proposalSigners)
        .set({ lastMailedAt: new Date(Date.now() - 4 * 86_400_000) })
        .where(eq(proposalSigners.proposalId, id));
    await back();
    expect((await sendProposalReminders(t.db, t.config)).reminded).toBe(1);
    const reminders = await mailTo(`dev-${run}@example.test`, `Reminder: Remind & Co: ${title}`);
    expect(reminders).toHaveLength(1);
    expect(await mailTo(`ira-${run}@example.test`, 'Reminder:')).toHaveLength(0);
    // Only the newest link works.
    expect(await codeOf(t.client().signing.open.mutate(oldLink))).toBe('NOT_FOUND');
    await t.client().signing.open.mutate(linkOf(reminders[0]?.notes.link ?? ''));
    // At most three.
    for (let i = 0; i < 4; i++) {
      await back();
      await sendProposalReminders(t.db, t.config);
    }
    expect(await mailTo(`dev-${run}@example.test`, 'Reminder:')).toHaveLength(3);
    const detail = await api.proposals.get.query({ proposalId: id });
    expect(detail.events.filter((e) => e.kind === 'reminded')).toHaveLength(3);
  });
});
