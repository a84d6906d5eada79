import { addDays, todayIn } from '../../src/domain/days';
import { expiryRemindAt } from '../../src/domain/reminder-schedule';
import { REMINDER_SEND } from '../../src/server/features/reminders';
import type { TDemoClient } from './clients';
import type { TDemoPerson } from './people';
import type { TPersonSession, TSession } from './session';

// Reminders of each type, made on the reminders screens and sent by the product's own send job:
// some went out in the past weeks (with their deliveries and the in-app notifications they made),
// one could not reach anybody and failed, one was cancelled, the rest wait for their time.

const FIRM_TIME_ZONE = 'Asia/Kolkata';
const DAY_MS = 86_400_000;

/** hh:mm on that day in Mumbai. */
const inMumbai = (day: string, time: string) => new Date(`${day}T${time}:00+05:30`);

export type TReminderContext = {
  session: TSession;
  sessionOf: (memberId: string) => TPersonSession;
  people: TDemoPerson[];
  clients: TDemoClient[];
  now: Date;
};

/** Something that happened at a moment of the replay. */
export type TDemoEvent = { at: Date; run: () => Promise<void> };

function cast(ctx: TReminderContext) {
  const role = (r: TDemoPerson['role']) => ctx.people.filter((p) => p.role === r);
  const [owner] = role('Owner');
  const [admin] = role('Admin');
  const [manager] = role('Manager');
  const staff = role('Staff');
  // The one who turns reminders off (see pastReminderEvents); the clients reminded are others'.
  const optedOut = staff[staff.length - 1];
  if (!owner || !admin || !manager || !optedOut) throw new Error('demo people missing');
  const reachable = ctx.clients.filter((c) => c.email && c.preparer !== optedOut);
  const client = (i: number) => reachable[i % reachable.length] as TDemoClient;
  const api = (p: TDemoPerson) => ctx.sessionOf(p.memberId).api;
  return { owner, admin, manager, staff, optedOut, client, api };
}

const sendDue = (ctx: TReminderContext) => ctx.session.runJobs([REMINDER_SEND]);

/**
 * The reminders of the past weeks, at their moments: made, then sent (or failed) when due. A client
 * or team reminder's time can be set at most a day back, so those were made within the last day.
 */
export function pastReminderEvents(ctx: TReminderContext): TDemoEvent[] {
  const { owner, admin, manager, staff, optedOut: neha, client, api } = cast(ctx);
  const today = todayIn(FIRM_TIME_ZONE, ctx.now);
  const hoursAgo = (n: number) => new Date(ctx.now.getTime() - n * 3_600_000);
  // Due at 09:00 in Mumbai eleven days before its today: before the replay's moment ten days ago
  // whatever the hour (Mumbai's day starts at 18:30 UTC), so the requests' chase at that moment,
  // which runs every due reminder job, never sends it ahead of its time.
  const iec = { expiryDate: addDays(today, 4), daysBefore: 15 };
  const iecClient = client(7);
  /** Made at `at` to go at once, and sent by the send job. */
  const now = (
    at: Date,
    input: Parameters<TPersonSession['api']['reminders']['create']>[0],
    by: TDemoPerson,
  ) => ({
    at,
    run: async () => {
      await api(by).reminders.create({ ...input, remindAt: at });
      await sendDue(ctx);
    },
  });
  return [
    {
      // Someone who wants no reminders at all: a reminder for them alone reaches nobody.
      at: new Date(ctx.now.getTime() - 30 * DAY_MS),
      run: async () => {
        await api(neha).notifications.preferences.set({ kind: 'reminder.due', inApp: false, email: false });
      },
    },
    {
      at: new Date(ctx.now.getTime() - 21 * DAY_MS),
      run: async () => {
        await api(manager).reminders.create({
          type: 'expiry',
          title: 'Import export code update',
          message: 'The IEC must be updated every year between April and June.',
          clientId: iecClient.id,
          channels: ['email', 'in_app'],
          memberIds: [iecClient.preparer.memberId],
          itemName: 'Import export code (IEC)',
          ...iec,
        });
      },
    },
    {
      // The send job picks it up when it falls due.
      at: expiryRemindAt(iec.expiryDate, iec.daysBefore, FIRM_TIME_ZONE),
      run: () => sendDue(ctx),
    },
    now(
      hoursAgo(20),
      {
        type: 'client',
        title: 'Sign the engagement letter',
        message: 'The engagement letter for this year is waiting for your signature.',
        clientId: client(2).id,
        channels: ['email'],
      },
      owner,
    ),
    now(
      hoursAgo(6),
      {
        type: 'team',
        title: 'Submit your timesheet for the month',
        message: 'Timesheets close on the last working day.',
        channels: ['in_app', 'email'],
        memberIds: [neha.memberId],
      },
      admin,
    ),
    now(
      hoursAgo(3),
      {
        type: 'team',
        title: 'TDS returns: collect challans',
        message: 'Collect the TDS challans from every client for the quarter.',
        channels: ['in_app', 'email'],
        memberIds: staff.slice(0, 2).map((p) => p.memberId),
      },
      manager,
    ),
  ];
}

/** The reminders waiting for their time, made today, and one cancelled. */
export async function createUpcomingReminders(ctx: TReminderContext) {
  const { owner, manager, staff, client, api } = cast(ctx);
  const today = todayIn(FIRM_TIME_ZONE, ctx.now);
  const ahead = (n: number, time = '10:00') => inMumbai(addDays(today, n), time);
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  const monday = ahead((8 - weekday) % 7 || 7, '09:30');
  const gst = client(0);
  const [project] = (
    await api(owner).projects.list({
      clientId: gst.id,
      page: 1,
      pageSize: 1,
      sort: 'dueDate',
      direction: 'desc',
    })
  ).rows;
  await api(manager).reminders.create({
    type: 'client',
    title: 'Documents pending for the return',
    message: 'Please share the sales and purchase registers by the 5th so we can file on time.',
    clientId: gst.id,
    projectId: project?.id ?? null,
    remindAt: ahead(3),
    recurrence: 'monthly',
    channels: ['email'],
  });
  await api(manager).reminders.create({
    type: 'client',
    title: 'Bank statements for the quarter',
    message: 'We still need the bank statements of the quarter for all your accounts.',
    clientId: client(1).id,
    remindAt: ahead(6),
    recurrence: 'quarterly',
    channels: ['email'],
  });
  await api(owner).reminders.create({
    type: 'team',
    title: 'Monthly GST filing review',
    message: 'Review every GSTR-3B prepared this month before the 18th.',
    remindAt: ahead(5, '09:00'),
    recurrence: 'monthly',
    channels: ['in_app', 'email'],
    memberIds: ctx.people.filter((p) => p.role === 'Manager').map((p) => p.memberId),
  });
  await api(owner).reminders.create({
    type: 'team',
    title: 'Weekly work-in-progress meeting',
    message: 'Bring your overdue tasks and blockers.',
    remindAt: monday,
    recurrence: 'weekly',
    channels: ['in_app'],
    memberIds: staff.map((p) => p.memberId),
  });
  for (const [i, item] of [
    {
      name: 'Digital signature certificate (Class 3)',
      title: 'Digital signature certificate expires',
      days: 40,
      before: 30,
    },
    {
      name: 'Shop and establishment licence',
      title: 'Shop and establishment licence renewal',
      days: 75,
      before: 45,
    },
  ].entries()) {
    const c = client(5 + i);
    await api(manager).reminders.create({
      type: 'expiry',
      title: item.title,
      message: `Renew the ${item.name.toLowerCase()} before it lapses.`,
      clientId: c.id,
      channels: ['email', 'in_app'],
      memberIds: [c.preparer.memberId],
      itemName: item.name,
      expiryDate: addDays(today, item.days),
      daysBefore: item.before,
    });
  }
  const cancelled = await api(owner).reminders.create({
    type: 'client',
    title: 'Investment proofs for the year',
    message: 'Send the investment proofs for deductions (80C, 80D) before the return.',
    clientId: client(4).id,
    remindAt: new Date(ctx.now.getTime() + 10 * DAY_MS),
    channels: ['email'],
  });
  await api(owner).reminders.cancel({ id: cancelled.id });
}
