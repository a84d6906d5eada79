import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCodeSequence } from '../../src/domain/clients';
import { addDays, weekStartOf } from '../../src/domain/days';
import { createFormatter } from '../../src/domain/format';
import { dueDateFor, periodContaining, projectNameFor } from '../../src/domain/periods';
import { expiryRemindAt } from '../../src/domain/reminder-schedule';
import type { TDueDateRule } from '../../src/domain/services';
import { findFiling } from '../../src/domain/statutory/catalogue';
import { filingDueDate, filingPeriodContaining } from '../../src/domain/statutory/rules';
import { PORTAL_SESSION_COOKIE } from '../../src/server/auth';
import { rowsOf } from '../../src/server/db/sql';
import { availableMinutes } from '../../src/server/features/leave';
import { defaultThrough, generateRecurringProjects } from '../../src/server/features/projects';
import { createIdpTestApp, idpCall } from '../../src/server/idp/test-helpers';
import { portalClient } from '../../src/server/test/portal';
import { DemoRefusedError, fillDemo, type TDemoResult, type TDemoSize } from './index';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let demo: TDemoResult;
const SMALL: TDemoSize = {
  clients: 40,
  groups: 5,
  // Long enough for invoices more than 90 days overdue.
  weeks: 22,
  timeWeeks: 5,
  comments: 20,
  tasksPerWeek: 2,
  documented: 3,
};

beforeAll(async () => {
  t = await createIdpTestApp();
  demo = await fillDemo(t.database, t.config, { size: SMALL });
}, 300_000);
afterAll(() => t?.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await t.db.execute(query));
}

async function signIn(email: string, password: string) {
  const res = await idpCall(t.endpoint, 'InitiateAuth', {
    ClientId: t.config.idp.clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  return res as { status: number; body: { AuthenticationResult?: { AccessToken: string } } };
}

/** A portal session for the person, signed in with the code mailed to them. */
async function portalSignIn(email: string) {
  await t.client().clientPortalAuth.requestCode.mutate({ email });
  const code = await t.lastCode(email);
  const res = await fetch(`${t.url}/api/trpc/clientPortalAuth.verifyCode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ json: { email, code } }),
  });
  expect(res.status).toBe(200);
  const token = res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${PORTAL_SESSION_COOKIE}=`))
    ?.split(';')[0]
    ?.split('=')[1];
  return portalClient(t, token);
}

describe('npm run demo', () => {
  it('fills a firm whose printed owner and staff sign in through the identity provider', async () => {
    expect(demo.counts.clients).toBe(40);
    expect(demo.counts.engagements).toBeGreaterThan(40);
    expect(demo.counts.projects).toBeGreaterThan(40);
    expect(demo.counts.tasks).toBeGreaterThan(demo.counts.projects);
    expect(demo.people.map((p) => p.role).sort()).toEqual([
      'Admin',
      'Manager',
      'Manager',
      'Owner',
      'Staff',
      'Staff',
      'Staff',
      'Staff',
    ]);

    // The firm was made on the onboarding form and its people joined by invitation.
    const [made] = await rows<Record<string, number>>(sql`select
      count(*) filter (where action = 'org.create')::int as firm,
      count(*) filter (where action = 'member.join')::int as joined
      from system_log where org_id = ${demo.orgId}::uuid`);
    expect(made).toEqual({ firm: 1, joined: 7 });

    const owner = await signIn(demo.owner.email, demo.password);
    expect(owner.status).toBe(200);
    const ownerApi = t.client(owner.body.AuthenticationResult?.AccessToken);
    expect(await ownerApi.profile.me.query()).toMatchObject({ firstName: 'Meera', isOwner: true });
    const summary = await ownerApi.dashboard.summary.query();
    expect(summary.tasks?.firmOverdue).toBeGreaterThan(0);
    expect(summary.activity.rows.length).toBeGreaterThan(0);

    const staff = await signIn(demo.staff.email, demo.password);
    expect(staff.status).toBe(200);
    const staffApi = t.client(staff.body.AuthenticationResult?.AccessToken);
    expect((await staffApi.dashboard.summary.query()).tasks?.myOpen).toBeGreaterThan(0);
    // Limited to assigned clients: a quarter of the book.
    const page = { page: 1, pageSize: 1 };
    expect((await staffApi.clients.list.query(page)).total).toBeLessThan(
      (await ownerApi.clients.list.query(page)).total,
    );
    expect((await signIn(demo.owner.email, 'Wrong#2026x')).status).toBe(400);
  });

  it('numbers its clients as the New client form does', async () => {
    const codes = await rows<{ code: string }>(
      sql`select code from clients where org_id = ${demo.orgId}::uuid order by created_at, code`,
    );
    const next = clientCodeSequence([]);
    expect(codes.map((c) => c.code)).toEqual(codes.map(() => next()));
  });

  it('has exactly the projects the recurrence rule gives its engagements: one per period, named and due by it', async () => {
    const projects = await rows<{
      id: string;
      clientId: string;
      serviceId: string;
      engagement: string | null;
      name: string;
      key: string;
      periodStart: string;
      periodEnd: string;
      startDate: string;
      dueDate: string;
      serviceName: string;
      frequency: 'monthly' | 'quarterly' | 'half_yearly' | 'yearly';
      rule: TDueDateRule | null;
      filingCode: string | null;
      fyStart: number;
    }>(sql`
      select p.id, p.client_id as "clientId", p.service_id as "serviceId", p.client_service_id as engagement,
        p.name, p.period_key as key, p.period_start::text as "periodStart", p.period_end::text as "periodEnd",
        p.start_date::text as "startDate", p.due_date::text as "dueDate", s.name as "serviceName",
        s.frequency, s.due_date_rule as rule, s.statutory_filing_code as "filingCode",
        o.fiscal_year_start_month as "fyStart"
      from projects p join services s on s.id = p.service_id join orgs o on o.id = p.org_id
      where p.org_id = ${demo.orgId}::uuid`);
    expect(projects.length).toBe(demo.counts.projects);
    expect(projects.filter((p) => !p.engagement)).toEqual([]);
    const seen = new Set<string>();
    for (const p of projects) {
      const key = `${p.clientId}|${p.serviceId}|${p.key}`;
      expect(seen.has(key), `${p.name} twice for one client`).toBe(false);
      seen.add(key);
      // A service linked to a statutory filing takes the filing's periods and due dates (issue 39).
      const filing = findFiling(p.filingCode);
      const period = filing
        ? filingPeriodContaining(filing, p.periodStart)
        : periodContaining(p.frequency, p.fyStart, p.periodStart);
      expect({
        key: p.key,
        start: p.periodStart,
        end: p.periodEnd,
        startDate: p.startDate,
        name: p.name,
        due: p.dueDate,
      }).toEqual({
        key: period.key,
        start: period.start,
        end: period.end,
        startDate: period.start,
        name: projectNameFor(p.serviceName, period),
        due: filing ? filingDueDate(filing, period.end) : dueDateFor(period.end, p.rule),
      });
    }
    // The product's own recurring job finds nothing left to make.
    const caughtUp = await generateRecurringProjects(t.db, { orgId: demo.orgId, through: defaultThrough() });
    expect(caughtUp.projects).toBe(0);

    // Each project's tasks are its template's, due the template's offset after the period.
    const wrong = await rows<{ title: string }>(sql`
      select t.title from tasks t join projects p on p.id = t.project_id
      left join template_tasks tt on tt.id = t.template_task_id
      where t.org_id = ${demo.orgId}::uuid and (tt.id is null or tt.template_id <> p.template_id
        or t.title <> tt.title or t.due_date <> p.period_end + tt.due_offset_days)`);
    expect(wrong).toEqual([]);
  });

  it('moves work as the product does: completed with a completion date, after it was made, never ahead of now', async () => {
    for (const table of ['tasks', 'projects']) {
      const [bad] = await rows<Record<string, number>>(sql`
        select
          count(*) filter (where (status = 'COMPLETED') <> (completed_date is not null))::int as "statusVsDate",
          count(*) filter (where completed_date < created_at)::int as "doneBeforeMade",
          count(*) filter (where completed_date > now() or created_at > now())::int as "ahead"
        from ${sql.raw(table)} where org_id = ${demo.orgId}::uuid`);
      expect(bad, table).toEqual({ statusVsDate: 0, doneBeforeMade: 0, ahead: 0 });
    }
    const [open] = await rows<{ n: number }>(sql`
      select count(*)::int as n from projects p where p.org_id = ${demo.orgId}::uuid and p.status = 'COMPLETED'
        and exists (select 1 from tasks t where t.project_id = p.id and t.status <> 'COMPLETED')`);
    expect(open?.n).toBe(0);
    // Work in every status: what stands now, and reviews on the way (a small firm's week may
    // have none standing).
    const statuses = await rows<{ status: string }>(
      sql`select distinct status from tasks where org_id = ${demo.orgId}::uuid order by status`,
    );
    expect(statuses.map((r) => r.status)).toEqual(
      expect.arrayContaining(['COMPLETED', 'IN_PROGRESS', 'SCHEDULED']),
    );
    const [reviews] = await rows<{ n: number }>(sql`
      select count(*)::int as n from system_log where org_id = ${demo.orgId}::uuid
        and action = 'task.bulk.setStatus' and summary like '% to IN_REVIEW'`);
    expect(reviews?.n).toBeGreaterThan(0);
    const [counts] = await rows<Record<string, number>>(sql`select
      (select count(*) from tasks where org_id = ${demo.orgId}::uuid and status <> 'COMPLETED'
        and due_date < current_date)::int as late,
      (select count(*) from task_comments where org_id = ${demo.orgId}::uuid)::int as comments,
      (select count(*) from project_templates where org_id = ${demo.orgId}::uuid)::int as templates,
      (select count(*) from system_log where org_id = ${demo.orgId}::uuid and at > now())::int as "logAhead",
      (select count(*) from notifications where org_id = ${demo.orgId}::uuid and kind = 'task.mentioned')::int as mentions`);
    expect(counts).toMatchObject({ templates: 4, logAhead: 0 });
    expect(counts?.late).toBeGreaterThan(0);
    expect(counts?.comments).toBeGreaterThan(0);
    expect(counts?.mentions).toBeGreaterThan(0);
  });

  it('shows every portal user documents for every client they act for, and no file shared inside an internal folder', async () => {
    expect(demo.portalUsers.map((u) => u.clients.length)).toEqual([2, 1, 1]);
    for (const user of demo.portalUsers) {
      const portal = await portalSignIn(user.email);
      const me = await portal.clientPortalProfile.me.query();
      expect(me.clients.map((c) => c.name).sort()).toEqual([...user.clients].sort());
      for (const client of me.clients) {
        const home = await portal.clientPortalHome.get.query({ clientId: client.id });
        expect(home.recentDocuments.length, `${user.name} for ${client.name}`).toBeGreaterThan(0);
      }
    }
    const hidden = await rows<{ name: string }>(sql`
      with recursive shown as (
        select f.id from document_folders f
        where f.org_id = ${demo.orgId}::uuid and f.client_id is not null and f.parent_id is null
        union all
        select f.id from document_folders f join shown on f.parent_id = shown.id where f.visible_to_portal
      )
      select d.name from documents d where d.org_id = ${demo.orgId}::uuid and d.visible_to_portal
        and (d.client_id is null or d.folder_id not in (select id from shown))`);
    expect(hidden).toEqual([]);
    const [docs] = await rows<Record<string, number>>(sql`select
      (select count(*) from documents where org_id = ${demo.orgId}::uuid)::int as documents,
      (select count(*) from documents where org_id = ${demo.orgId}::uuid and visible_to_portal)::int as shared,
      (select count(*) from documents where org_id = ${demo.orgId}::uuid and client_id is null)::int as vault,
      (select count(*) from task_attachments where org_id = ${demo.orgId}::uuid)::int as attached,
      (select count(*) from documents where org_id = ${demo.orgId}::uuid
        and uploaded_by_client_user_id is not null)::int as "fromPortal",
      (select count(*) from notifications where org_id = ${demo.orgId}::uuid
        and kind = 'task.client_update')::int as "clientUpdates"`);
    expect(docs?.shared).toBeGreaterThan(0);
    expect(docs?.shared).toBeLessThan(docs?.documents ?? 0);
    expect(docs?.vault).toBeGreaterThan(0);
    expect(docs?.attached).toBeGreaterThan(0);
    // The portal's people used it: files sent on their to-dos, and the firm was told.
    expect(docs?.fromPortal).toBeGreaterThan(0);
    expect(docs?.clientUpdates).toBeGreaterThan(0);
  });

  it('has reminders of every type and status, sent as the send job sends them', async () => {
    const reminders = await rows<{
      id: string;
      type: string;
      status: string;
      remindAt: Date;
      anchorAt: Date;
      recurrence: string;
      expiryDate: string | null;
      daysBefore: number | null;
      createdBy: string;
      title: string;
    }>(sql`
      select id, type, status, remind_at as "remindAt", anchor_at as "anchorAt", recurrence,
        expiry_date::text as "expiryDate", days_before as "daysBefore", created_by as "createdBy", title
      from reminders where org_id = ${demo.orgId}::uuid`).then((list) =>
      list.map((r) => ({ ...r, remindAt: new Date(r.remindAt), anchorAt: new Date(r.anchorAt) })),
    );
    expect(new Set(reminders.map((r) => r.type)).size).toBe(3);
    expect([...new Set(reminders.map((r) => r.status))].sort()).toEqual([
      'cancelled',
      'failed',
      'scheduled',
      'sent',
    ]);
    const deliveries = await rows<{
      reminderId: string;
      channel: string;
      memberId: string | null;
      occurrenceAt: Date;
      sentAt: Date;
      notified: boolean;
    }>(sql`
      select d.reminder_id as "reminderId", d.channel, d.member_id as "memberId", d.occurrence_at as "occurrenceAt",
        d.sent_at as "sentAt",
        exists (select 1 from notifications n where n.org_id = d.org_id and n.member_id = d.member_id
                and n.kind = 'reminder.due' and n.title = r.title) as notified
      from reminder_deliveries d join reminders r on r.id = d.reminder_id
      where d.org_id = ${demo.orgId}::uuid and d.status = 'sent'`).then((list) =>
      list.map((d) => ({ ...d, occurrenceAt: new Date(d.occurrenceAt), sentAt: new Date(d.sentAt) })),
    );
    expect(deliveries.length).toBeGreaterThan(3);
    for (const r of reminders) {
      if (r.type === 'expiry') {
        expect(r.remindAt).toEqual(
          expiryRemindAt(r.expiryDate as string, r.daysBefore as number, 'Asia/Kolkata'),
        );
      }
      if (r.status === 'scheduled') expect(r.remindAt.getTime()).toBeGreaterThan(Date.now());
      const mine = deliveries.filter((d) => d.reminderId === r.id);
      if (r.status === 'sent') expect(mine.length, r.title).toBeGreaterThan(0);
      for (const d of mine) {
        expect(d.occurrenceAt).toEqual(r.anchorAt);
        expect(d.sentAt.getTime()).toBeGreaterThanOrEqual(d.occurrenceAt.getTime());
        expect(d.sentAt.getTime()).toBeLessThanOrEqual(Date.now());
        if (d.channel === 'in_app') expect(d.notified, `${r.title} in the app`).toBe(true);
      }
    }
    const failed = reminders.find((r) => r.status === 'failed');
    const [told] = await rows<{ n: number }>(sql`
      select count(*)::int as n from notifications where org_id = ${demo.orgId}::uuid
        and member_id = ${failed?.createdBy}::uuid and title like 'Reminder not sent:%'`);
    expect(told?.n).toBe(1);
  });

  it('records time as the grid allows it: nothing on holidays or approved leave, no day past 12 hours, believable days', async () => {
    const org = demo.orgId;
    const today = demo.today;
    const days = await rows<{ memberId: string; date: string; minutes: number }>(sql`
      select member_id as "memberId", date::text as date, sum(minutes)::int as minutes
      from timesheet_entries where org_id = ${org}::uuid group by 1, 2`);
    // Five weeks of eight people.
    expect(days.length).toBeGreaterThan(100);
    expect(days.filter((d) => d.minutes > 12 * 60)).toEqual([]);
    expect(days.filter((d) => d.date > today)).toEqual([]);

    // Against what the product expects of each person each day (pattern less holidays and leave).
    const from = days.reduce((min, d) => (d.date < min ? d.date : min), today);
    const expected = await availableMinutes(
      t.db,
      org,
      demo.people.map((p) => p.memberId),
      from,
      today,
    );
    const off = days.filter((d) => !expected.get(d.memberId)?.[d.date]);
    expect(off, 'time on a day off, a holiday or a day of approved leave').toEqual([]);
    const full = days.filter((d) => expected.get(d.memberId)?.[d.date] === 480);
    // Six to eight and a half hours most days, up to ten before a deadline; people are drawn
    // afresh each run, so how many crunch days the window holds varies and the bound is 6–10 h.
    const usual = full.filter((d) => d.minutes >= 360 && d.minutes <= 600);
    expect(usual.length / full.length).toBeGreaterThan(0.9);

    // The same, read straight from the holidays and the approved leave.
    const onHoliday = await rows<{ date: string }>(sql`
      select e.date::text as date from timesheet_entries e
      join holidays h on h.org_id = e.org_id and h.date = e.date and h.part = 'full'
      where e.org_id = ${org}::uuid`);
    expect(onHoliday).toEqual([]);
    const onLeave = await rows<{ date: string }>(sql`
      select e.date::text as date from timesheet_entries e
      join leave_requests r on r.org_id = e.org_id and r.member_id = e.member_id and r.status = 'approved'
        and r.part = 'full' and e.date between r.start_date and r.end_date
      where e.org_id = ${org}::uuid`);
    expect(onLeave).toEqual([]);

    // Client time is billable as the product defaults it (the admin's fee follow-ups are not); the
    // firm's own time says what it was.
    const [kinds] = await rows<Record<string, number>>(sql`select
      count(*) filter (where client_id is null and task_id is null and note = '')::int as "unexplained",
      count(*) filter (where client_id is null and billable)::int as "internalBilled",
      count(*) filter (where client_id is not null and not billable and note not like 'Fee follow-up%')::int as "clientUnbilled",
      count(*) filter (where task_id is not null)::int as "onTasks",
      count(*) filter (where client_id is null)::int as "internal",
      count(*) filter (where not billable and client_id is not null)::int as "feeFollowUps"
      from timesheet_entries where org_id = ${org}::uuid`);
    expect(kinds).toMatchObject({ unexplained: 0, internalBilled: 0, clientUnbilled: 0 });
    expect(kinds?.onTasks).toBeGreaterThan(0);
    expect(kinds?.internal).toBeGreaterThan(0);
    expect(kinds?.feeFollowUps).toBeGreaterThan(0);
  });

  it('bills and approves time by its rules: rates and budgets set, nobody approving their own week', async () => {
    const org = demo.orgId;
    // Every week was decided by someone else; the approvers' weeks by the admin (the admin's by the owner).
    const decided = await rows<{ member: string; role: string; decider: string; deciderRole: string }>(sql`
      select m.id as member, r.name as role, d.id as decider, dr.name as "deciderRole"
      from timesheet_weeks w
      join members m on m.org_id = w.org_id and m.id = w.member_id join roles r on r.id = m.role_id
      join members d on d.org_id = w.org_id and d.id = w.decided_by join roles dr on dr.id = d.role_id
      where w.org_id = ${org}::uuid and w.status = 'approved'`);
    expect(decided.length).toBeGreaterThan(0);
    expect(decided.filter((w) => w.member === w.decider)).toEqual([]);
    for (const w of decided.filter((x) => x.role !== 'Staff'))
      expect([w.role, w.deciderRole]).toEqual([w.role, w.role === 'Admin' ? 'Owner' : 'Admin']);
    const owner = await signIn(demo.owner.email, demo.password);
    const api = t.client(owner.body.AuthenticationResult?.AccessToken);
    const settings = await api.timesheets.approvalSettings.query();
    expect(settings.approversApproverId).toBe(demo.people.find((p) => p.role === 'Admin')?.memberId);
    // The team summary has what it needs: all time rated and costed, and work ahead budgeted.
    const today = demo.today;
    const team = await api.reports.teamSummary.query({ from: addDays(today, -30), to: today });
    expect(team.totals).toMatchObject({ unratedMinutes: 0, uncostedMinutes: 0 });
    expect(team.totals?.billableValue).toBeGreaterThan(0);
    expect(team.totals?.workAheadMinutes).toBeGreaterThan(0);
    const [loose] = await rows<{ n: number }>(sql`select count(*)::int as n from tasks
      where org_id = ${org}::uuid and budget_minutes is null and not for_client and status <> 'COMPLETED'`);
    expect(loose?.n).toBe(0);
  });

  it('has every week before last approved (one sent back and sent again), last week partly sent, this week in draft', async () => {
    const org = demo.orgId;
    const thisWeek = weekStartOf(demo.today);
    const lastWeek = addDays(thisWeek, -7);
    const weeks = await rows<{
      memberId: string;
      week: string;
      entries: string[];
      status: string | null;
    }>(sql`
      select e.member_id as "memberId", w.week::text as week, array_agg(distinct e.status) as entries, tw.status
      from timesheet_entries e
      cross join lateral (select (e.date - ((extract(isodow from e.date)::int - 1)))::date as week) w
      left join timesheet_weeks tw on tw.org_id = e.org_id and tw.member_id = e.member_id and tw.week_start = w.week
      where e.org_id = ${org}::uuid group by 1, 2, 4`);
    const older = weeks.filter((w) => w.week < lastWeek);
    expect(older.length).toBeGreaterThan(0);
    expect(older.filter((w) => w.status !== 'approved' || w.entries.join() !== 'approved')).toEqual([]);
    const current = weeks.filter((w) => w.week === thisWeek);
    expect(current.filter((w) => w.status !== null || w.entries.join() !== 'draft')).toEqual([]);
    const last = weeks.filter((w) => w.week === lastWeek);
    expect(last.some((w) => w.status === 'submitted')).toBe(true);
    expect(last.some((w) => w.status === null)).toBe(true);
    expect(last.some((w) => w.status === 'approved')).toBe(false);

    // The lock closes last month's time, all of it approved.
    const [lock] = await rows<{ lockDate: string | null }>(sql`
      select lock_date::text as "lockDate" from timesheet_settings where org_id = ${org}::uuid`);
    expect(lock?.lockDate).toBeTruthy();
    const [open] = await rows<{ n: number }>(sql`select count(*)::int as n from timesheet_entries
      where org_id = ${org}::uuid and date <= ${lock?.lockDate}::date and status <> 'approved'`);
    expect(open?.n).toBe(0);

    // A week was sent back with a comment and is approved now it was corrected.
    const sentBack = await rows<{ memberId: string; summary: string }>(sql`
      select record_id as "memberId", summary from system_log
      where org_id = ${org}::uuid and action = 'timesheet.reject'`);
    expect(sentBack.length).toBeGreaterThan(0);
    // The log names the week as the firm writes it ("week of 2 Mar 2026").
    const [firm] = await rows<{ country: string | null; timeZone: string; currency: string }>(sql`
      select country, time_zone as "timeZone", currency from orgs where id = ${org}::uuid`);
    const format = createFormatter(firm ?? { country: null, timeZone: 'UTC', currency: 'USD' });
    for (const r of sentBack) {
      const week = weeks.find(
        (w) => w.memberId === r.memberId && r.summary.includes(`week of ${format.date(w.week)}:`),
      );
      expect(week?.status).toBe('approved');
    }
    // Someone's timer is running now.
    const [timers] = await rows<{ n: number }>(sql`select count(*)::int as n from timesheet_timers
      where org_id = ${org}::uuid and stopped_at is null`);
    expect(timers?.n).toBe(1);
  });

  it('has the holidays, leave types and a year of leave: decided by managers, never overlapping, never overdrawn', async () => {
    const org = demo.orgId;
    const today = demo.today;
    const [holidays] = await rows<{ thisYear: number; halfDays: number }>(sql`select
      count(*) filter (where extract(year from date) = ${Number(today.slice(0, 4))})::int as "thisYear",
      count(*) filter (where part <> 'full')::int as "halfDays"
      from holidays where org_id = ${org}::uuid`);
    expect(holidays?.thisYear).toBeGreaterThanOrEqual(10);
    expect(holidays?.halfDays).toBeGreaterThan(0);
    const types = await rows<{ name: string }>(
      sql`select name from leave_types where org_id = ${org}::uuid order by name`,
    );
    expect(types.map((x) => x.name)).toEqual(['Casual leave', 'Earned leave', 'Sick leave', 'Unpaid leave']);

    const requests = await rows<{
      memberId: string;
      status: string;
      start: string;
      end: string;
      part: string;
      comment: string | null;
    }>(sql`
      select member_id as "memberId", status, start_date::text as start, end_date::text as "end", part,
        decision_comment as comment
      from leave_requests where org_id = ${org}::uuid order by start_date`);
    expect(new Set(requests.map((r) => r.status))).toEqual(
      new Set(['approved', 'rejected', 'cancelled', 'pending']),
    );
    expect(requests.filter((r) => r.status === 'rejected' && !r.comment)).toEqual([]);
    expect(requests.filter((r) => r.status === 'pending' && r.start <= today)).toEqual([]);
    expect(requests.some((r) => r.status === 'approved' && r.start > today)).toBe(true);
    expect([...new Set(requests.map((r) => r.part))]).toEqual(
      expect.arrayContaining(['full', 'second_half', 'hours']),
    );
    const standing = requests.filter((r) => r.status === 'approved' || r.status === 'pending');
    const halves = (a: string, b: string) =>
      (a === 'first_half' && b === 'second_half') || (a === 'second_half' && b === 'first_half');
    for (const [i, a] of standing.entries()) {
      for (const b of standing.slice(i + 1)) {
        const overlap =
          a.memberId === b.memberId && a.start <= b.end && b.start <= a.end && !halves(a.part, b.part);
        expect(overlap, `${a.start}–${a.end} and ${b.start}–${b.end}`).toBe(false);
      }
    }
    // Long leave went to a second approver.
    const [second] = await rows<{ n: number }>(sql`select count(*)::int as n from system_log
      where org_id = ${org}::uuid and action = 'leave.approveFirst'`);
    expect(second?.n).toBeGreaterThan(0);

    // Balances come from the product's job (accruals, allocations) and never go below zero where
    // the type forbids it, counting what is still pending.
    const overdrawn = await rows<{ name: string; year: number; balance: number }>(sql`
      with ledger as (
        select member_id, leave_type_id, extract(year from effective_on)::int as year, sum(amount)::int as balance
        from leave_ledger where org_id = ${org}::uuid group by 1, 2, 3),
      pending as (
        select member_id, leave_type_id, extract(year from start_date)::int as year, sum(amount)::int as pending
        from leave_requests where org_id = ${org}::uuid and status = 'pending' group by 1, 2, 3)
      select t.name, l.year, l.balance - coalesce(p.pending, 0) as balance
      from ledger l join leave_types t on t.id = l.leave_type_id
      left join pending p using (member_id, leave_type_id, year)
      where not t.allow_negative and l.balance - coalesce(p.pending, 0) < 0`);
    expect(overdrawn).toEqual([]);
    const [ledger] = await rows<Record<string, number>>(sql`select
      count(*) filter (where run_key like 'accrual:%')::int as accruals,
      count(*) filter (where run_key like 'allocation:%')::int as allocations,
      count(*) filter (where kind = 'taken')::int as taken,
      count(*) filter (where kind = 'reversal')::int as reversals,
      (select count(*) from leave_runs where org_id = ${org}::uuid and status = 'done')::int as runs
      from leave_ledger where org_id = ${org}::uuid`);
    for (const n of Object.values(ledger ?? {})) expect(n).toBeGreaterThan(0);

    // The staff member printed for sign-in is away soon, with work due meanwhile on their home.
    const staff = await signIn(demo.staff.email, demo.password);
    const staffApi = t.client(staff.body.AuthenticationResult?.AccessToken);
    const away = await staffApi.dashboard.dueWhileAway.query();
    expect(away?.[0]?.tasks.length).toBeGreaterThan(0);
  });

  it('has broadcast templates and a broadcast sent a week ago, every delivery accounted for', async () => {
    const [t1] = await rows<{ n: number }>(sql`
      select count(*)::int as n from broadcast_templates where org_id = ${demo.orgId}::uuid`);
    expect(t1?.n).toBe(2);
    const [b] = await rows<{ id: string; status: string; recipients: number; sent: number; ago: number }>(sql`
      select b.id, b.status, b.recipient_count as recipients,
        (select count(*)::int from broadcast_deliveries d where d.broadcast_id = b.id and d.state = 'sent') as sent,
        extract(epoch from now() - b.send_at) / 86400 as ago
      from broadcasts b where b.org_id = ${demo.orgId}::uuid`);
    expect(b?.status).toBe('completed');
    expect(b?.recipients).toBeGreaterThan(10);
    expect(b?.sent).toBe(b?.recipients);
    expect(Number(b?.ago)).toBeGreaterThan(6);
    const log = await rows<{ action: string }>(sql`
      select action from system_log where org_id = ${demo.orgId}::uuid and record_id = ${b?.id} order by at`);
    expect(log.map((l) => l.action)).toEqual(['broadcast.created', 'broadcast.completed']);
  });

  it('has a year of billing that tells a story: every status, slow payers, a retainer, a credit note, a write-down', async () => {
    const token = (await signIn(demo.owner.email, demo.password)).body.AuthenticationResult?.AccessToken;
    const api = t.client(token);
    const org = sql`${demo.orgId}::uuid`;
    const statuses = await rows<{ status: string }>(sql`
      select distinct status from invoices where org_id = ${org} and kind = 'invoice' order by status`);
    expect(statuses.map((r) => r.status)).toEqual(['draft', 'issued', 'paid', 'partly_paid', 'sent', 'void']);
    expect((await api.billing.invoices.list.query({ status: 'overdue', pageSize: 1 })).total).toBeGreaterThan(
      0,
    );
    const [voided] = await rows<{ reason: string }>(
      sql`select void_reason as reason from invoices where org_id = ${org} and status = 'void'`,
    );
    expect(voided?.reason).toMatch(/^Raised twice by mistake/);

    // The recurring job made the fixed fees' invoices as their periods began, each issued on or after
    // its period's first day; the returns and audits were billed as their projects were completed.
    const made = await rows<{ recurring: boolean; early: number; n: number }>(sql`
      select i.recurring, count(*)::int as n,
        count(*) filter (where i.issue_date < l.period_start)::int as early
      from invoices i join invoice_lines l on l.org_id = i.org_id and l.invoice_id = i.id and l.kind = 'fee'
      where i.org_id = ${org} and i.status <> 'draft' group by i.recurring order by i.recurring`);
    expect(made.map((m) => m.recurring)).toEqual([false, true]);
    expect(made.every((m) => m.early === 0 && m.n > 0)).toBe(true);
    const [logged] = await rows<{ n: number }>(sql`
      select count(*)::int as n from system_log where org_id = ${org} and action = 'invoice.create'
        and actor_kind = 'system' and summary like '%as its period started%'`);
    expect(logged?.n).toBeGreaterThan(0);

    // Aging today: a client who stopped paying five months ago, two who pay a month or two late.
    const aging = await api.billing.receivables.aging.query({ by: 'client', pageSize: 200 });
    expect(aging.totals?.d31_60).toBeGreaterThan(0);
    expect(aging.totals?.d61_90).toBeGreaterThan(0);
    expect(aging.totals?.d90_plus).toBeGreaterThan(0);
    // A retainer paid in advance, drawn on by the invoices since: credit left.
    const withCredit = aging.rows.filter((r) => r.credit > 0);
    expect(withCredit.length).toBeGreaterThan(0);
    const [applied] = await rows<{ n: number }>(sql`
      select count(*)::int as n from system_log where org_id = ${org} and action = 'credit.apply'`);
    expect(applied?.n).toBeGreaterThan(0);

    // A fee corrected after issue: a credit note dated the day it was raised, settling its invoice.
    const notes = await rows<{ issued: string; made: string; settled: number }>(sql`
      select i.issue_date::text as issued, (i.created_at at time zone 'Asia/Kolkata')::date::text as made,
        (select count(*) from allocations a where a.credit_note_id = i.id)::int as settled
      from invoices i where i.org_id = ${org} and i.kind = 'credit_note' and i.status <> 'void'`);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.issued).toBe(notes[0]?.made);
    expect(notes[0]?.settled).toBe(1);

    // The advice billed below its standard value: realization under 100% for that client.
    const realized = await rows<{ billed: number; standard: number }>(sql`
      select sum(l.amount)::float8 as billed, sum(l.standard_value)::float8 as standard
      from invoice_lines l join invoices i on i.org_id = l.org_id and i.id = l.invoice_id
      where l.org_id = ${org} and l.kind = 'time' and i.status not in ('draft', 'void')
      group by i.client_id having bool_or(l.discount > 0)`);
    expect(realized).toHaveLength(1);
    expect(realized[0]?.billed ?? 0).toBeLessThan(realized[0]?.standard ?? 0);

    // TDS deducted by business clients under 194J: certificates in for the older quarters only.
    const tds = await rows<{ received: boolean; first: string; last: string }>(sql`
      select tds_certificate_received as received, min(received_on)::text as first, max(received_on)::text as last
      from payments where org_id = ${org} and tds_amount > 0 and tds_section = '194J'
      group by tds_certificate_received order by 1`);
    expect(tds.map((r) => r.received)).toEqual([false, true]);
    expect((tds[1]?.last ?? '') < (tds[0]?.first ?? '')).toBe(true);

    // Every client's statement closes at its invoices less its payments and credits.
    const owed = await rows<{ clientId: string; from: string; owed: number }>(sql`
      select i.client_id as "clientId", min(i.issue_date)::text as from,
        (sum(case when i.kind = 'invoice' then i.total else -i.total end)
         - coalesce((select sum(p.amount + p.tds_amount + p.bank_charges) from payments p
             where p.org_id = i.org_id and p.client_id = i.client_id and p.kind = 'receipt'), 0))::float8 as owed
      from invoices i where i.org_id = ${org} and i.status not in ('draft', 'void')
      group by i.org_id, i.client_id`);
    expect(owed.length).toBeGreaterThan(10);
    const today = demo.today;
    for (const c of owed) {
      const statement = await api.billing.statements.get.query({
        clientId: c.clientId,
        from: c.from,
        to: today,
      });
      expect(statement.openingBalance).toBe(0);
      expect(statement.closingBalance, c.clientId).toBe(c.owed);
    }
  });

  it('has months of client conversations: closed, assigned, waiting on the client, and a new unassigned one', async () => {
    const found = await rows<{
      subject: string;
      status: string;
      assigned: boolean;
      messages: number;
      notes: number;
    }>(sql`
      select t.subject, t.status, t.assignee_id is not null as assigned,
        (select count(*)::int from messages m where m.org_id = t.org_id and m.thread_id = t.id) as messages,
        (select count(*)::int from messages m where m.org_id = t.org_id and m.thread_id = t.id and m.internal) as notes
      from message_threads t where t.org_id = ${demo.orgId}::uuid order by t.created_at`);
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.some((t) => t.status === 'closed' && t.notes > 0)).toBe(true);
    expect(found.some((t) => t.assigned)).toBe(true);
    expect(found.some((t) => t.status === 'open' && !t.assigned && t.messages === 1)).toBe(true);
  });

  it('has proposals in each state: expired, declined with a reason, signed and sealed, awaiting two signers', async () => {
    const found = await rows<{
      title: string;
      status: string;
      expired: boolean;
      reason: string | null;
      sealed: boolean;
      invoiced: boolean;
      engagements: number;
    }>(sql`
      select p.title, p.status, p.expires_on < current_date as expired, p.decline_reason as reason,
        p.document_id is not null as sealed, p.invoice_id is not null as invoiced,
        (select count(*)::int from client_services cs where cs.org_id = p.org_id and cs.client_id = p.client_id
          and cs.notes like 'From the proposal%') as engagements
      from proposals p where p.org_id = ${demo.orgId}::uuid order by p.created_at`);
    expect(found.some((p) => p.status === 'sent' && p.expired)).toBe(true);
    expect(found.some((p) => p.status === 'sent' && !p.expired)).toBe(true);
    expect(found.some((p) => p.status === 'declined' && !!p.reason)).toBe(true);
    const signed = found.find((p) => p.status === 'accepted');
    expect(signed).toMatchObject({ sealed: true, invoiced: true });
    expect(signed?.engagements).toBeGreaterThan(0);
  });

  it('has client requests in every state, one overdue and chased until it needed attention', async () => {
    const found = await rows<{ status: string; n: number }>(sql`
      select status, count(*)::int as n from requests where org_id = ${demo.orgId}::uuid group by status`);
    expect(found.map((r) => r.status).sort()).toEqual([
      'cancelled',
      'complete',
      'draft',
      'in_progress',
      'returned',
      'sent',
      'submitted',
    ]);
    const today = demo.today;
    const [chased] = await rows<{ id: string; due: string; attention: Date | null; steps: number }>(sql`
      select r.id, r.due_date::text as due, r.needs_attention_at as attention,
        (select count(*)::int from request_reminder_steps s where s.org_id = r.org_id and s.request_id = r.id) as steps
      from requests r where r.org_id = ${demo.orgId}::uuid and r.title = 'Audit papers FY 2025-26'
        and r.status = 'sent'`);
    expect(chased?.due && chased.due < today).toBe(true);
    expect(chased?.steps).toBeGreaterThanOrEqual(3);
    expect(chased?.attention).toBeTruthy();
    // Each chase is a client reminder mailed to the request's recipients, in the delivery history.
    const [delivered] = await rows<{ n: number }>(sql`
      select count(*)::int as n from reminder_deliveries d join reminders m
        on m.org_id = d.org_id and m.id = d.reminder_id
      where m.request_id = ${chased?.id ?? null}::uuid and d.status = 'sent'`);
    expect(delivered?.n).toBeGreaterThanOrEqual(3);
    // The returned one says what to fix; the complete one was accepted item by item.
    const [returned] = await rows<{ n: number }>(sql`
      select count(*)::int as n from request_items i join requests r on r.org_id = i.org_id and r.id = i.request_id
      where r.org_id = ${demo.orgId}::uuid and r.status = 'returned' and i.review = 'returned'
        and i.return_reason <> ''`);
    expect(returned?.n).toBe(1);
  });

  it('refuses a database that already has a firm, and adds a second demo firm with --force', async () => {
    await expect(fillDemo(t.database, t.config, { size: SMALL })).rejects.toBeInstanceOf(DemoRefusedError);
    const second = await fillDemo(t.database, t.config, { size: { ...SMALL, weeks: 2 }, force: true });
    expect(second.owner.email).toBe('meera@sharma-associates-2.test');
    expect((await signIn(second.owner.email, second.password)).status).toBe(200);
    const [first] = await rows<{ n: number }>(sql`
      select count(*)::int as n from clients where org_id = ${demo.orgId}::uuid and not prospect`);
    expect(first?.n).toBe(40);
  }, 300_000);
});
