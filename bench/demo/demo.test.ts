import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCodeSequence } from '../../src/domain/clients';
import { dueDateFor, periodContaining, projectNameFor } from '../../src/domain/periods';
import { expiryRemindAt } from '../../src/domain/reminders';
import type { TDueDateRule } from '../../src/domain/services';
import { PORTAL_SESSION_COOKIE } from '../../src/server/auth';
import { rowsOf } from '../../src/server/db/sql';
import { defaultThrough, generateRecurringProjects } from '../../src/server/features/projects';
import { createIdpTestApp, idpCall } from '../../src/server/idp/test-helpers';
import { portalClient } from '../../src/server/test/portal';
import { DemoRefusedError, fillDemo, type TDemoResult, type TDemoSize } from './index';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let demo: TDemoResult;
const SMALL: TDemoSize = { clients: 40, groups: 5, weeks: 8, comments: 20, tasksPerWeek: 2, documented: 3 };

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
      fyStart: number;
    }>(sql`
      select p.id, p.client_id as "clientId", p.service_id as "serviceId", p.client_service_id as engagement,
        p.name, p.period_key as key, p.period_start::text as "periodStart", p.period_end::text as "periodEnd",
        p.start_date::text as "startDate", p.due_date::text as "dueDate", s.name as "serviceName",
        s.frequency, s.due_date_rule as rule, o.fiscal_year_start_month as "fyStart"
      from projects p join services s on s.id = p.service_id join orgs o on o.id = p.org_id
      where p.org_id = ${demo.orgId}::uuid`);
    expect(projects.length).toBe(demo.counts.projects);
    expect(projects.filter((p) => !p.engagement)).toEqual([]);
    const seen = new Set<string>();
    for (const p of projects) {
      const key = `${p.clientId}|${p.serviceId}|${p.key}`;
      expect(seen.has(key), `${p.name} twice for one client`).toBe(false);
      seen.add(key);
      const period = periodContaining(p.frequency, p.fyStart, p.periodStart);
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
        due: dueDateFor(period.end, p.rule),
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

  it('refuses a database that already has a firm, and adds a second demo firm with --force', async () => {
    await expect(fillDemo(t.database, t.config, { size: SMALL })).rejects.toBeInstanceOf(DemoRefusedError);
    const second = await fillDemo(t.database, t.config, { size: { ...SMALL, weeks: 2 }, force: true });
    expect(second.owner.email).toBe('meera@sharma-associates-2.test');
    expect((await signIn(second.owner.email, second.password)).status).toBe(200);
    const [first] = await rows<{ n: number }>(sql`
      select count(*)::int as n from clients where org_id = ${demo.orgId}::uuid`);
    expect(first?.n).toBe(40);
  }, 300_000);
});
