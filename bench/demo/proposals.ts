import { addDays, todayIn } from '../../src/domain/days';
import type { TConfig } from '../../src/server/config';
import { PROPOSAL_SEAL, registerProposalJobs } from '../../src/server/features/proposals';
import { createStorage } from '../../src/server/files/storage';
import type { TDemoPerson } from './people';
import type { portalPlan } from './portal';
import type { TDemoEvent } from './reminders';
import { atServerTime } from './server-clock';
import type { TPersonSession, TSession } from './session';

// Proposals and engagement letters (issue 37) over the last weeks, written on the product's own
// screens and signed in its portal: an engagement letter template, a proposal to a prospect that
// expired unanswered, one a client declined with a reason, one a client signed in the portal (its
// engagement made, the signed PDF sealed and filed), and one to a new prospect awaiting its two
// signers in turn.

const DAY_MS = 86_400_000;
const TIME_ZONE = 'Asia/Kolkata';

export type TProposalContext = {
  session: TSession;
  sessionOf: (memberId: string) => TPersonSession;
  people: TDemoPerson[];
  plan: ReturnType<typeof portalPlan>;
  now: Date;
  config: TConfig;
};

const LETTER =
  '<p>Dear {{contact_name}},</p><p>Thank you for considering {{firm_name}}. This letter sets out the services we propose for {{client_name}}:</p>{{services}}<p>Our fees:</p>{{fees}}<p>This offer is open until {{expiry_date}}. Sign below to accept it.</p>';

export function proposalEvents(ctx: TProposalContext): TDemoEvent[] {
  const owner = ctx.people.find((p) => p.role === 'Owner');
  const [, anita, vikram] = ctx.plan;
  if (!owner || !anita || !vikram) return [];
  const anitaClient = anita.for[0];
  const vikramClient = vikram.for[0];
  if (!anitaClient || !vikramClient) return [];
  const boss = () => ctx.sessionOf(owner.memberId).api;
  const at = (days: number, hours = 0) => new Date(ctx.now.getTime() - days * DAY_MS + hours * 3_600_000);
  const dayIn = (from: Date, days: number) => addDays(todayIn(TIME_ZONE, from), days);
  let templateId: string | null = null;
  const ids = new Map<string, string>();

  /** The firm's letter template, made once: the catalogue's first services as two packages. */
  async function template() {
    if (templateId) return templateId;
    const services = await boss().proposals.serviceOptions();
    const [first, second, third] = services;
    if (!first || !second) throw new Error('the demo catalogue has too few services');
    const saved = await boss().proposals.templates.save({
      name: 'Engagement letter: compliance',
      letterHtml: LETTER,
      packages: [
        {
          name: 'Essential',
          services: [{ serviceId: first.id, billingMode: 'fixed', fee: '12000', feeTrigger: 'manual' }],
        },
        {
          name: 'Complete',
          services: [
            { serviceId: first.id, billingMode: 'fixed', fee: '12000', feeTrigger: 'manual' },
            { serviceId: second.id, billingMode: 'hourly', fee: '' },
          ],
        },
      ],
      addOns: third
        ? [{ serviceId: third.id, billingMode: 'hourly', fee: '', description: 'When needed' }]
        : [],
      terms:
        'Fees are payable within 15 days of the invoice. Either side may end the engagement with 30 days notice.',
      followUp: { billing: 'fees_draft' },
    });
    templateId = saved.id;
    return saved.id;
  }

  /** A proposal from the template for a client or prospect, sent now, open until `days` from today. */
  async function send(
    key: string,
    clientId: string,
    title: string,
    days: number,
    signers: { name: string; email: string }[],
    when: Date,
    signingOrder: 'any' | 'sequential' = 'any',
  ) {
    const draft = await boss().proposals.fromTemplate({ clientId, templateId: await template() });
    const { id } = await boss().proposals.create({
      ...draft,
      title,
      expiresOn: dayIn(when, days),
      signingOrder,
      signers,
    });
    await boss().proposals.send({ proposalId: id });
    ids.set(key, id);
  }

  /**
   * A portal call as the signer, at the moment it stands for (the sign-in itself on the real clock:
   * its code's lifetime is the database's). A refused sign-in (the portal's code limits) leaves it
   * unanswered.
   */
  async function asClient(email: string, when: Date, procedure: string, input: unknown) {
    try {
      const portal = await ctx.session.portalSignIn(email);
      await atServerTime(when, () => portal.mutate(procedure, input));
    } catch (error) {
      if (!/refused \((401|429)\)/.test(String(error))) throw error;
    }
  }

  // Sending and signing read the server's today (expiry), so each runs at the moment it stands for.
  const events: (TDemoEvent & { portal?: true })[] = [
    {
      // To a prospect who never answered: it expired ten days ago.
      at: at(40, 3),
      run: async () => {
        const prospect = await boss().clients.create({
          code: (await boss().clients.nextCode()).code,
          name: 'Sunrise Bakery',
          email: 'owner@sunrisebakery.example',
          prospect: true,
        });
        await send(
          'expired',
          prospect.id,
          'Engagement letter: Sunrise Bakery',
          30,
          [{ name: 'Farah Khan', email: 'owner@sunrisebakery.example' }],
          at(40, 3),
        );
      },
    },
    {
      at: at(20, 2),
      run: () =>
        send(
          'declined',
          anitaClient.id,
          `Advisory engagement: ${anitaClient.name}`,
          21,
          [{ name: anita.name, email: anita.email }],
          at(20, 2),
        ),
    },
    {
      // Declined in the portal, with the client's reason.
      at: at(18, 5),
      portal: true,
      run: async () => {
        const proposalId = ids.get('declined');
        if (!proposalId) return;
        await asClient(anita.email, at(18, 5), 'clientPortalSigning.decline', {
          clientId: anitaClient.id,
          proposalId,
          reason: 'We will keep our current arrangement this year and revisit it after the audit.',
        });
      },
    },
    {
      at: at(12, 3),
      run: () =>
        send(
          'signed',
          vikramClient.id,
          `Engagement letter 2026: ${vikramClient.name}`,
          21,
          [{ name: vikram.name, email: vikram.email }],
          at(12, 3),
        ),
    },
    {
      // Signed in the portal: the engagement is made, the first invoice drafted, the PDF sealed.
      at: at(11, 6),
      portal: true,
      run: async () => {
        const proposalId = ids.get('signed');
        if (!proposalId) return;
        await asClient(vikram.email, at(11, 6), 'clientPortalSigning.sign', {
          clientId: vikramClient.id,
          proposalId,
          packageIndex: 1,
          addOnIndexes: [],
          signature: { kind: 'typed', text: vikram.name },
          consent: true,
        });
        registerProposalJobs(await createStorage(ctx.config));
        await ctx.session.runJobs([PROPOSAL_SEAL, 'proposals.followUp']);
      },
    },
    {
      // A new prospect's two directors, in turn: awaiting the first signature.
      at: at(3, 4),
      run: async () => {
        const prospect = await boss().clients.create({
          code: (await boss().clients.nextCode()).code,
          name: 'Greenleaf Organics Pvt Ltd',
          email: 'directors@greenleaf.example',
          prospect: true,
        });
        await send(
          'sent',
          prospect.id,
          'Engagement letter: Greenleaf Organics',
          27,
          [
            { name: 'Kavya Menon', email: 'kavya@greenleaf.example' },
            { name: 'Arjun Menon', email: 'arjun@greenleaf.example' },
          ],
          at(3, 4),
          'sequential',
        );
      },
    },
  ];
  return events.map((e) => (e.portal ? e : { at: e.at, run: () => atServerTime(e.at, e.run) }));
}
