import type { TDemoClient } from './clients';
import type { TDemoPerson } from './people';
import type { portalPlan } from './portal';
import type { TDemoEvent } from './reminders';
import type { TPersonSession, TSession } from './session';

// Client messages (issue 38) over the last months, written on the product's screens and in its
// portal: a finished exchange with an internal note and a closed thread, a client's question
// assigned to a manager and answered, a thread the client has not answered yet, and a client's
// question from two days ago that nobody has taken (unassigned, unread).

const DAY_MS = 86_400_000;

export type TMessageContext = {
  session: TSession;
  sessionOf: (memberId: string) => TPersonSession;
  people: TDemoPerson[];
  plan: ReturnType<typeof portalPlan>;
  now: Date;
};

export function messageEvents(ctx: TMessageContext): TDemoEvent[] {
  const owner = ctx.people.find((p) => p.role === 'Owner');
  const manager = ctx.people.find((p) => p.role === 'Manager');
  const [rohan, anita, vikram] = ctx.plan;
  if (!owner || !manager || !rohan || !anita || !vikram) return [];
  const [company1, company2] = rohan.for;
  const anitaClient = anita.for[0];
  const vikramClient = vikram.for[0];
  if (!company1 || !company2 || !anitaClient || !vikramClient) return [];
  const boss = () => ctx.sessionOf(owner.memberId).api;
  const lead = () => ctx.sessionOf(manager.memberId).api;
  const at = (days: number, hours = 0) => new Date(ctx.now.getTime() - days * DAY_MS + hours * 3_600_000);
  const threads = new Map<string, string>();
  // One portal sign-in per person for all their messages: each sign-in mails a code, and the portal
  // allows only a few codes an address in 15 minutes (the replay runs months in minutes).
  const portals = new Map<string, ReturnType<TSession['portalSignIn']>>();
  const portalOf = (email: string, fresh = false) => {
    let signedIn = portals.get(email);
    if (!signedIn || fresh) {
      signedIn = ctx.session.portalSignIn(email);
      portals.set(email, signedIn);
    }
    return signedIn;
  };
  /**
   * A portal call; a session the replay's months have expired signs in again, once. When the
   * portal's code limits (per address and per machine, in real time) refuse a sign-in, the client's
   * line is left out rather than the whole demo failing: answer null.
   */
  async function asClient<T>(email: string, procedure: string, input: unknown): Promise<T | null> {
    try {
      try {
        return await (await portalOf(email)).mutate<T>(procedure, input);
      } catch (error) {
        if (!/refused \(401\)/.test(String(error))) throw error;
        return await (await portalOf(email, true)).mutate<T>(procedure, input);
      }
    } catch (error) {
      if (/refused \(429\)/.test(String(error))) {
        portals.delete(email);
        return null;
      }
      throw error;
    }
  }

  const portalUserOf = async (api: TPersonSession['api'], client: TDemoClient, email: string) =>
    (await api.messages.peopleOptions({ clientId: client.id })).clientUsers.find((u) => u.email === email)
      ?.id;

  async function start(
    key: string,
    api: TPersonSession['api'],
    client: TDemoClient,
    email: string,
    subject: string,
    body: string,
  ) {
    const person = await portalUserOf(api, client, email);
    const made = await api.messages.create({
      clientId: client.id,
      subject,
      body,
      clientUserIds: person ? [person] : [],
    });
    threads.set(key, made.id);
  }
  async function portalWrite(email: string, client: TDemoClient, key: string, body: string) {
    const threadId = threads.get(key);
    if (!threadId) return;
    await asClient(email, 'clientPortalMessages.markRead', { clientId: client.id, threadId });
    await asClient(email, 'clientPortalMessages.post', { clientId: client.id, threadId, body });
  }
  async function portalStart(email: string, client: TDemoClient, key: string, subject: string, body: string) {
    const made = await asClient<{ id: string }>(email, 'clientPortalMessages.create', {
      clientId: client.id,
      subject,
      body,
    });
    if (made) threads.set(key, made.id);
  }
  const reply =
    (api: () => TPersonSession['api'], key: string, body: string, internal = false) =>
    async () => {
      const threadId = threads.get(key);
      if (!threadId) return;
      await api().messages.markRead({ threadId });
      await api().messages.post({ threadId, body, internal });
    };

  return [
    // Four months ago: advance tax, settled and closed.
    {
      at: at(110),
      run: () =>
        start(
          'advance',
          boss(),
          company1,
          rohan.email,
          'Advance tax for the December quarter',
          `Dear Rohan,\n\nThe third instalment of advance tax for ${company1.name} is due on 15 December. Based on the profits to date we estimate it at about ₹4.2 lakh. Shall we prepare the challan?`,
        ),
    },
    {
      at: at(109, 3),
      run: () =>
        portalWrite(
          rohan.email,
          company1,
          'advance',
          'Yes please. Profits dipped in November though, can you recheck the estimate?',
        ),
    },
    {
      at: at(109, 5),
      run: reply(
        lead,
        'advance',
        'Checked the November ledger: the dip is a one-off provision. Estimate holds at ₹4.1 lakh.',
        true,
      ),
    },
    {
      at: at(108),
      run: reply(
        boss,
        'advance',
        'We rechecked with the November figures: ₹4.1 lakh. The challan is ready in your documents.',
      ),
    },
    { at: at(107), run: () => portalWrite(rohan.email, company1, 'advance', 'Paid today. Thank you!') },
    {
      at: at(106),
      run: async () => {
        const threadId = threads.get('advance');
        if (threadId) await boss().messages.update({ threadId, status: 'closed' });
      },
    },
    // Two months ago: a notice, from the client, assigned to the manager and answered.
    {
      at: at(62),
      run: () =>
        portalStart(
          anita.email,
          anitaClient,
          'notice',
          'Notice from the income-tax department',
          'I received a notice under section 143(1) about a mismatch in interest income. What should I do?',
        ),
    },
    {
      at: at(62, 2),
      run: async () => {
        const threadId = threads.get('notice');
        if (threadId) await boss().messages.update({ threadId, assigneeId: manager.memberId });
      },
    },
    {
      at: at(61),
      run: reply(
        lead,
        'notice',
        'Thank you, Anita. It is the savings-bank interest from your second account. We will file the response; nothing to pay.',
      ),
    },
    { at: at(60), run: () => portalWrite(anita.email, anitaClient, 'notice', 'That is a relief, thanks.') },
    // Three weeks ago: documents asked for, not answered yet.
    {
      at: at(21),
      run: () =>
        start(
          'gst',
          lead(),
          vikramClient,
          vikram.email,
          'GST registration documents',
          'Hello Vikram, for the GST registration we still need the rent agreement of the shop and a recent electricity bill.',
        ),
    },
    // Two days ago: a question nobody has taken yet.
    {
      at: at(2),
      run: () =>
        portalStart(
          rohan.email,
          company2,
          'meeting',
          'Can we meet next week?',
          'We are planning a new branch and would like your advice on the structure. Any day next week works.',
        ),
    },
  ];
}
