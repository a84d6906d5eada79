import { count, eq, sql } from 'drizzle-orm';
import { addDays, todayIn, weekStartOf } from '../../src/domain/days';
import { periodContaining } from '../../src/domain/periods';
import type { TConfig } from '../../src/server/config';
import type { TDatabase, TDb } from '../../src/server/db/client';
import { idpUsers, orgs } from '../../src/server/db/schema';
import { rowsOf } from '../../src/server/db/sql';
import { usernameKey } from '../../src/server/idp/users';
import { openBillingDesk } from './billing';
import { billingCast } from './billing-payers';
import { setUpBilling } from './billing-setup';
import { pastBroadcastEvents } from './broadcasts';
import { DemoCalendar, inMumbai } from './calendar';
import {
  advisedClients,
  clientWorkOf,
  createDemoCatalogue,
  createDemoEngagements,
  linkDemoTemplates,
  type TDemoCatalogue,
  type TDemoEngagement,
} from './catalogue';
import { createDemoClients, type TDemoClient } from './clients';
import { replayClock, type TClockStep } from './clock';
import { fileClientDocuments, fileLatestWork, fileVault, setDemoDefaultFolders } from './documents';
import { FIRM_WEEK, FOUR_DAY_WEEK, partTimer, planLeave, setUpLeave, type TLeaveTypeIds } from './leave';
import { messageEvents } from './messages';
import { openOffice } from './office';
import { createDemoAccounts, DEMO_PASSWORD, openDemoFirm, type TDemoPerson } from './people';
import { invitePortalUsers, portalPlan, portalRound, type TDemoPortalUser } from './portal';
import { proposalEvents } from './proposals';
import { setUpTimeRules } from './rates';
import { createUpcomingReminders, pastReminderEvents, type TDemoEvent } from './reminders';
import { requestEvents } from './requests';
import { atServerTime } from './server-clock';
import { openSession, type TPersonSession } from './session';
import { replayWork } from './work';

// The demo firm. Past its people's accounts at the identity provider, everything is done through
// the product (session.ts), as the firm would have done it on screen over its months with Practice:
// the owner makes the firm and invites the team, they set up the catalogue and the book, then week
// after week the recurring-work job and the people's work, replayed on the clock (clock.ts) so
// every date is where that work would have put it. Day by day the people record their time, send
// their weeks and take leave (office.ts), their managers approve both.

export class DemoRefusedError extends Error {}

export type TDemoSize = {
  clients: number;
  groups: number;
  /** How many weeks of work the firm has done with Practice. */
  weeks: number;
  /** The last of those weeks in which its people recorded time and took leave (unset: all). */
  timeWeeks?: number;
  /** Notes on work under way over those weeks (work sent for review always says so too). */
  comments: number;
  /** Tasks outside the recurring projects that come up each week. */
  tasksPerWeek: number;
  /** Clients with documents, besides those of the portal's people. */
  documented: number;
};

export type TDemoOptions = {
  /** Add another demo firm to a database that already has a firm. */
  force?: boolean;
  size?: TDemoSize;
};

export type TDemoResult = {
  orgId: string;
  firmName: string;
  password: string;
  people: TDemoPerson[];
  owner: TDemoPerson;
  staff: TDemoPerson;
  /** Active client users; they sign in at /clientportal/auth/login with a mailed code. */
  portalUsers: TDemoPortalUser[];
  counts: { clients: number; engagements: number; projects: number; tasks: number };
  /** The firm's today when the replay ended: a check made minutes later may be past midnight. */
  today: string;
};

export const DEMO_SIZE: TDemoSize = {
  clients: 300,
  groups: 25,
  weeks: 52,
  timeWeeks: 52,
  comments: 650,
  tasksPerWeek: 6,
  documented: 10,
};

const FIRM_TIME_ZONE = 'Asia/Kolkata';
const DAY_MS = 86_400_000;
const FISCAL_YEAR_START_MONTH = 4;

/** A firm number whose addresses nobody holds yet: 1 is sharma-associates.test, 2 sharma-associates-2.test… */
async function freeFirmNumber(db: TDb, from: number) {
  for (let n = from; ; n++) {
    const domain = n === 1 ? 'sharma-associates.test' : `sharma-associates-${n}.test`;
    const [taken] = await db
      .select({ id: idpUsers.id })
      .from(idpUsers)
      .where(eq(idpUsers.usernameKey, usernameKey(`meera@${domain}`)));
    if (!taken) return { n, domain };
  }
}

export async function fillDemo(
  database: TDatabase,
  config: TConfig,
  options: TDemoOptions = {},
): Promise<TDemoResult> {
  const db = database.db;
  const [existing] = await db.select({ n: count() }).from(orgs);
  const firms = Number(existing?.n ?? 0);
  if (firms > 0 && !options.force) {
    throw new DemoRefusedError(
      `This database already has ${firms} firm${firms === 1 ? '' : 's'}: run with --force to add another demo firm beside ${firms === 1 ? 'it' : 'them'}.`,
    );
  }
  const size = options.size ?? DEMO_SIZE;
  const { n, domain } = await freeFirmNumber(db, firms + 1);
  const firmName = n === 1 ? 'Sharma & Associates' : `Sharma & Associates ${n}`;
  const poolName = config.idp.userPoolId.split('_')[1] ?? '';

  const accounts = await createDemoAccounts(db, poolName, domain);

  // The replay: the firm set up in the fortnight before its first week with Practice, then worked
  // `weeks` weeks up to a few minutes ago; what it does today (reminders ahead) happens now.
  const now = new Date();
  const until = new Date(now.getTime() - 10 * 60_000);
  const since = new Date(until.getTime() - size.weeks * 7 * DAY_MS);
  // The engagements run from the fiscal year before, so the last year's returns are due in it.
  const engagedFrom = periodContaining(
    'yearly',
    FISCAL_YEAR_START_MONTH,
    addDays(todayIn(FIRM_TIME_ZONE, since), -365),
  ).start;
  // It bills in Practice from its first whole month with it; the year before was billed outside.
  const billFrom = addDays(
    periodContaining('monthly', FISCAL_YEAR_START_MONTH, todayIn(FIRM_TIME_ZONE, since)).end,
    1,
  );

  const session = await openSession(database, config);
  try {
    const clock = await replayClock(db);
    const as = new Map<string, TPersonSession>();
    const sessionOf = (memberId: string) => {
      const found = as.get(memberId);
      if (!found) throw new Error(`no session for member ${memberId}`);
      return found;
    };
    let orgId = '';
    let people: TDemoPerson[] = [];
    let clients: TDemoClient[] = [];
    let plan: ReturnType<typeof portalPlan> = [];
    let portalUsers: TDemoPortalUser[] = [];
    let documented: TDemoClient[] = [];
    let leaveTypes: TLeaveTypeIds | undefined;
    let engagements: TDemoEngagement[] = [];
    let services: TDemoCatalogue['services'] = [];
    const setUpOn = todayIn(FIRM_TIME_ZONE, since);
    await clock.during(
      new Date(since.getTime() - 14 * DAY_MS),
      new Date(since.getTime() - 3_600_000),
      async () => {
        const firm = await openDemoFirm(session, accounts, firmName);
        orgId = firm.orgId;
        people = firm.people;
        clock.forFirm(orgId);
        const { Manager, Staff } = firm.roleIds;
        if (!Manager || !Staff) throw new Error('the seeded roles are missing');
        for (const [memberId, signedIn] of firm.sessions) as.set(memberId, signedIn);
        const boss = sessionOf(people[0]?.memberId ?? '');
        const catalogue = await createDemoCatalogue(boss, { Manager, Staff });
        services = catalogue.services;
        await setDemoDefaultFolders(boss);
        clients = await createDemoClients(boss, people, size, n);
        await setUpBilling(boss, firmName);
        // Saving an engagement bills the period the server's today is in: the setup's, not now's.
        engagements = await atServerTime(new Date(since.getTime() - 7 * DAY_MS), () =>
          createDemoEngagements(boss, catalogue, clients, { startDate: engagedFrom, billFrom }, n),
        );
        await linkDemoTemplates(boss, catalogue, catalogue.templateOf);
        plan = portalPlan(clients, domain);
        portalUsers = await invitePortalUsers(session, boss, plan);
        // Every client someone acts for in the portal has documents there, and a few more clients.
        documented = [...new Set([...plan.flatMap((p) => p.for), ...clients.slice(0, size.documented)])];
        for (const client of documented)
          await fileClientDocuments(sessionOf(client.preparer.memberId), client);
        await fileVault(boss);
        const admin = people.find((p) => p.role === 'Admin');
        if (!admin) throw new Error('demo admin missing');
        leaveTypes = await setUpLeave(sessionOf(admin.memberId), people, Number(setUpOn.slice(0, 4)));
        await setUpTimeRules(boss, people, catalogue);
        await session.deliverMail();
      },
    );
    const owner = people.find((p) => p.role === 'Owner');
    const staff = people.find((p) => p.role === 'Staff');
    if (!owner || !staff) throw new Error('demo people missing');
    const ctx = { session, sessionOf, people, clients, now };
    const today = todayIn(FIRM_TIME_ZONE, until);
    const firstDay = todayIn(
      FIRM_TIME_ZONE,
      new Date(until.getTime() - Math.min(size.weeks, size.timeWeeks ?? size.weeks) * 7 * DAY_MS),
    );
    const firstWeek = weekStartOf(firstDay) === firstDay ? firstDay : addDays(weekStartOf(firstDay), 7);
    const setUpYear = Number(setUpOn.slice(0, 4));
    const years = Array.from({ length: Number(today.slice(0, 4)) + 2 - setUpYear }, (_, i) => setUpYear + i);
    const fourDays = partTimer(people)?.memberId;
    const calendar = new DemoCalendar(years, (id) => (id === fourDays ? FOUR_DAY_WEEK : FIRM_WEEK));
    const clientsOf = (memberId: string) => {
      const person = people.find((p) => p.memberId === memberId);
      if (person?.role === 'Staff') return clients.filter((c) => c.preparer.memberId === memberId);
      if (person?.role === 'Manager') return clients.filter((c) => c.reviewer.memberId === memberId);
      return clients;
    };
    const advised = advisedClients(clients);
    const office = openOffice({
      db,
      orgId,
      clock,
      people,
      sessionOf,
      calendar,
      leaveTypes: leaveTypes as TLeaveTypeIds,
      plans: planLeave(people, calendar, firstWeek, today),
      clientsOf,
      clientWork: clientWorkOf(engagements, services, advised),
      firstWeek,
      today,
      until,
    });
    const desk = openBillingDesk({
      session,
      sessionOf,
      people,
      clients,
      calendar,
      cast: billingCast(clients, engagements, advised),
      billFrom,
      rocClients: new Set(engagements.filter((e) => e.code === 'ROC').map((e) => e.clientId)),
      rocEngagements: new Set(engagements.filter((e) => e.code === 'ROC').map((e) => e.id)),
      today,
      until,
      clock,
    });
    office.imported([setUpYear, setUpYear + 1]);
    const events: TDemoEvent[] = [
      ...pastReminderEvents(ctx),
      ...pastBroadcastEvents(ctx),
      ...requestEvents({ ...ctx, db, orgId, publicUrl: config.publicUrl, plan }),
      ...messageEvents({ ...ctx, plan }),
      ...proposalEvents({ ...ctx, plan, config }),
      {
        at: new Date(now.getTime() - 2 * DAY_MS),
        run: async () => {
          for (const client of documented) {
            await fileLatestWork(db, orgId, sessionOf(client.preparer.memberId), client);
          }
        },
      },
      { at: new Date(now.getTime() - 3 * DAY_MS), run: () => portalRound(session, plan) },
      {
        // People read what they were told until a fortnight ago; the last two weeks are unread.
        at: new Date(now.getTime() - 14 * DAY_MS),
        run: async () => {
          for (const person of people) await sessionOf(person.memberId).api.notifications.markAllRead();
        },
      },
    ].sort((a, b) => a.at.getTime() - b.at.getTime());
    await replayWork(
      {
        db,
        orgId,
        clock,
        people,
        clients,
        sessionOf,
        deliverMail: session.deliverMail,
        onWeek: async ({ from, to }) => {
          // The week's days and its events, in the order they happened, each on its own moment.
          const steps: TClockStep[] = [];
          for (let day = todayIn(FIRM_TIME_ZONE, from); inMumbai(day, '09:30') < to; day = addDays(day, 1)) {
            if (inMumbai(day, '09:30') < from) continue;
            for (const step of [office.day(day), desk.day(day)]) if (step) steps.push(step);
          }
          for (const event of events.filter((e) => e.at >= from && e.at < to)) {
            steps.push({
              from: event.at,
              to: new Date(event.at.getTime() + 10 * 60_000),
              run: async () => {
                await event.run();
                await session.deliverMail();
              },
            });
          }
          await clock.inTurn(steps.sort((a, b) => a.from.getTime() - b.from.getTime()));
        },
      },
      since,
      until,
      { comments: size.comments, tasksPerWeek: size.tasksPerWeek },
    );
    await office.finish(now);
    await desk.finish(now);
    await createUpcomingReminders(ctx);

    const counted = await db.execute(sql`select
      (select count(*) from clients where org_id = ${orgId}::uuid and not prospect)::int as clients,
      (select count(*) from client_services where org_id = ${orgId}::uuid)::int as engagements,
      (select count(*) from projects where org_id = ${orgId}::uuid)::int as projects,
      (select count(*) from tasks where org_id = ${orgId}::uuid)::int as tasks`);
    const counts = rowsOf<TDemoResult['counts']>(counted)[0] ?? {
      clients: 0,
      engagements: 0,
      projects: 0,
      tasks: 0,
    };
    return { orgId, firmName, password: DEMO_PASSWORD, people, owner, staff, portalUsers, counts, today };
  } finally {
    await session.close();
  }
}
