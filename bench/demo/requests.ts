import { addDays, todayIn } from '../../src/domain/days';
import { isDone, shownItems, type TRuleItem } from '../../src/domain/requests/rules';
import type { TRequestTemplateSave } from '../../src/domain/requests/schemas';
import type { TDb } from '../../src/server/db/client';
import { REMINDER_SEND } from '../../src/server/features/reminders';
import { sendRequestReminders } from '../../src/server/features/requests';
import type { TDemoClient } from './clients';
import { pdfFile } from './documents';
import type { TDemoPerson } from './people';
import type { portalPlan } from './portal';
import type { TDemoEvent } from './reminders';
import type { TPersonSession, TSession } from './session';

// Client requests (issue 36) over the last weeks, made on the product's screens and answered in its
// portal: one in each state (draft, sent, in progress, submitted, returned, complete, cancelled),
// one overdue and chased by the reminder job until it needed attention.

const FIRM_TIME_ZONE = 'Asia/Kolkata';
const DAY_MS = 86_400_000;

const ITR: TRequestTemplateSave['sections'] = [
  {
    title: 'Income',
    items: [
      { key: 'form16', kind: 'file', label: 'Form 16 from each employer', hint: 'The PDF from TRACES' },
      { key: 'bank', kind: 'file', label: 'Bank statements, April to March', hint: 'Every account' },
      { key: 'salary', kind: 'amount', label: 'Gross salary for the year' },
      { key: 'regime', kind: 'choice', label: 'Tax regime', options: ['Old', 'New'] },
    ],
  },
  {
    title: 'Property',
    items: [
      { key: 'sold', kind: 'yes_no', label: 'Did you sell property this year?' },
      { key: 'deed', kind: 'file', label: 'Sale deed', condition: { key: 'sold', equals: 'yes' } },
      { key: 'rent', kind: 'amount', label: 'Rent paid in the year', required: false },
      { key: 'ack', kind: 'acknowledgement', label: 'I confirm these are complete and correct' },
    ],
  },
];

const AUDIT: TRequestTemplateSave['sections'] = [
  {
    title: '',
    items: [
      { key: 'bank', kind: 'file', label: 'Bank statements of every account' },
      { key: 'stock', kind: 'number', label: 'Closing stock (units)' },
      { key: 'loans', kind: 'long_text', label: 'Loans taken or repaid in the year' },
    ],
  },
];

export type TRequestContext = {
  db: TDb;
  orgId: string;
  publicUrl: string;
  session: TSession;
  sessionOf: (memberId: string) => TPersonSession;
  people: TDemoPerson[];
  plan: ReturnType<typeof portalPlan>;
  now: Date;
};

type TPortal = Awaited<ReturnType<TSession['portalSignIn']>>;
type TPortalItem = Omit<TRuleItem, 'fileCount' | 'notApplicable'> & {
  id: string;
  files: unknown[];
  notApplicableReason: string | null;
};

/** The past weeks' requests, as events of the replay. */
export function requestEvents(ctx: TRequestContext): TDemoEvent[] {
  const owner = ctx.people.find((p) => p.role === 'Owner');
  const manager = ctx.people.find((p) => p.role === 'Manager');
  const [rohan, anita, vikram] = ctx.plan;
  if (!owner || !manager || !rohan || !anita || !vikram) return [];
  const [company1, company2] = rohan.for;
  const anitaClient = anita.for[0];
  const vikramClient = vikram.for[0];
  if (!company1 || !company2 || !anitaClient || !vikramClient) return [];
  const boss = () => ctx.sessionOf(owner.memberId).api;
  const reviewer = () => ctx.sessionOf(manager.memberId).api;
  const daysAgo = (n: number) => new Date(ctx.now.getTime() - n * DAY_MS);
  const day = (n: number) => todayIn(FIRM_TIME_ZONE, daysAgo(n));
  const ids = new Map<string, string>();
  let template: { id: string; sections: TRequestTemplateSave['sections'] } | undefined;

  async function send(
    key: string,
    client: TDemoClient,
    input: { title: string; dueDate: string; sections: TRequestTemplateSave['sections']; send?: boolean },
  ) {
    const people = await boss().requests.recipientOptions({ clientId: client.id });
    const made = await boss().requests.create({
      clientId: client.id,
      ...(template && input.sections === template.sections ? { templateId: template.id } : {}),
      title: input.title,
      dueDate: input.dueDate,
      recipientIds: people.map((p) => p.id),
      message: 'Please send these when you can; what you type is saved as you go.',
      sections: input.sections,
      send: input.send ?? true,
    });
    ids.set(key, made.id);
  }

  /** The client answers every item shown (files from the phone), and submits if asked to. */
  async function answer(
    email: string,
    client: TDemoClient,
    key: string,
    opts: { submit: boolean; only?: number },
  ) {
    // A short replay (a few weeks) starts after some requests were sent: their later steps skip.
    const requestId = ids.get(key);
    if (!requestId) return;
    const portal = await ctx.session.portalSignIn(email);
    let answered = 0;
    for (;;) {
      const r = await portal.query<{ items: TPortalItem[] }>('clientPortalRequests.get', {
        clientId: client.id,
        requestId,
      });
      const rule = r.items.map((i) => ({
        ...i,
        fileCount: i.files.length,
        notApplicable: i.notApplicableReason !== null,
      }));
      const next = shownItems(rule).find((i) => !isDone(i));
      if (!next || (opts.only !== undefined && answered >= opts.only)) break;
      await answerItem(portal, client, requestId, next);
      answered += 1;
    }
    if (opts.submit) await portal.mutate('clientPortalRequests.submit', { clientId: client.id, requestId });
  }

  async function answerItem(portal: TPortal, client: TDemoClient, requestId: string, item: TPortalItem) {
    const ref = { clientId: client.id, requestId, itemId: item.id };
    if (item.kind === 'file') {
      await portal.uploadToRequest(
        ref,
        pdfFile(`${item.key} - ${client.name}.pdf`, `${item.key} of ${client.name}`),
      );
      return;
    }
    const value =
      item.kind === 'amount'
        ? 1_245_000_00
        : item.kind === 'number'
          ? 120
          : item.kind === 'choice'
            ? 'New'
            : item.kind === 'yes_no'
              ? 'no'
              : item.kind === 'acknowledgement'
                ? true
                : 'A term loan of ₹5,00,000 from HDFC, repaid ₹1,20,000 in the year.';
    await portal.mutate('clientPortalRequests.answer', { ...ref, value });
  }

  async function review(key: string, returnKey?: string) {
    const requestId = ids.get(key);
    if (!requestId) return;
    const r = await reviewer().requests.get({ requestId });
    for (const item of r.items.filter((i) => i.shown)) {
      const back = item.key === returnKey;
      await reviewer().requests.review({
        requestId,
        itemId: item.id,
        decision: back ? 'returned' : 'accepted',
        reason: back ? 'This statement stops in December: please add January to March.' : '',
      });
    }
  }

  /**
   * The reminder job's hourly pass on that day, and the send of what it queued, in one step of
   * the replay (the send checks the reminder's time against its job's). Sending runs every due
   * reminder job, so the passes start after the demo's expiry reminder fell due (eleven days
   * ago, reminders.ts): the first one catches up with the step the request is at, as the job does.
   */
  const chase = (n: number): TDemoEvent => ({
    at: daysAgo(n),
    run: async () => {
      await sendRequestReminders(ctx.db, ctx.publicUrl, daysAgo(n), { orgId: ctx.orgId });
      await ctx.session.runJobs([REMINDER_SEND]);
    },
  });

  return [
    {
      at: daysAgo(46),
      run: async () => {
        const saved = await boss().requests.templates.save({
          name: 'Income tax return documents',
          sections: ITR,
        });
        template = { id: saved.id, sections: ITR };
        await boss().requests.templates.save({ name: 'Audit papers', sections: AUDIT });
      },
    },
    // Complete: sent, answered, accepted and closed.
    {
      at: daysAgo(45),
      run: () =>
        send('complete', company1, { title: 'ITR documents FY 2025-26', dueDate: day(30), sections: ITR }),
    },
    // Overdue, and chased: due ten days ago, never answered.
    {
      at: daysAgo(44),
      run: () =>
        send('chased', vikramClient, { title: 'Audit papers FY 2025-26', dueDate: day(10), sections: AUDIT }),
    },
    { at: daysAgo(36), run: () => answer(rohan.email, company1, 'complete', { submit: true }) },
    {
      at: daysAgo(33),
      run: async () => {
        await review('complete');
        const requestId = ids.get('complete');
        if (requestId) await reviewer().requests.complete({ requestId });
      },
    },
    // Cancelled: sent twice by mistake.
    {
      at: daysAgo(30),
      run: () => send('cancelled', anitaClient, { title: 'KYC refresh', dueDate: day(16), sections: AUDIT }),
    },
    {
      at: daysAgo(29),
      run: async () => {
        const requestId = ids.get('cancelled');
        if (requestId) await boss().requests.cancel({ requestId, reason: 'Sent twice by mistake' });
      },
    },
    // Returned: answered, and one file sent back to fix.
    {
      at: daysAgo(21),
      run: () =>
        send('returned', anitaClient, {
          title: 'ITR documents FY 2025-26',
          dueDate: addDays(day(0), 5),
          sections: ITR,
        }),
    },
    { at: daysAgo(16), run: () => answer(anita.email, anitaClient, 'returned', { submit: true }) },
    { at: daysAgo(13), run: () => review('returned', 'bank') },
    chase(10),
    // Submitted: waiting for the firm's review.
    {
      at: daysAgo(12),
      run: () =>
        send('submitted', company2, {
          title: 'Audit papers FY 2025-26',
          dueDate: addDays(day(0), 10),
          sections: AUDIT,
        }),
    },
    { at: daysAgo(5), run: () => answer(rohan.email, company2, 'submitted', { submit: true }) },
    chase(7),
    // In progress: two answers so far.
    {
      at: daysAgo(6),
      run: () =>
        send('in_progress', vikramClient, {
          title: 'ITR documents FY 2025-26',
          dueDate: addDays(day(0), 20),
          sections: ITR,
        }),
    },
    {
      at: daysAgo(4),
      run: () => answer(vikram.email, vikramClient, 'in_progress', { submit: false, only: 2 }),
    },
    chase(4),
    // Sent, not opened yet.
    {
      at: daysAgo(2),
      run: () =>
        send('sent', company2, {
          title: 'ITR documents FY 2025-26',
          dueDate: addDays(day(0), 14),
          sections: ITR,
        }),
    },
    chase(1),
    // A draft the owner is still putting together.
    {
      at: daysAgo(1),
      run: () =>
        send('draft', company1, {
          title: 'Advance tax working, Q3',
          dueDate: addDays(day(0), 12),
          sections: AUDIT,
          send: false,
        }),
    },
  ];
}
