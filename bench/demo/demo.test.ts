import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_SESSION_COOKIE } from '../../src/server/auth';
import { createStorage } from '../../src/server/files/storage';
import { createIdpTestApp, idpCall } from '../../src/server/idp/test-helpers';
import { portalClient } from '../../src/server/test/portal';
import { DemoRefusedError, fillDemo } from './index';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

const SMALL = { clients: 40, groups: 5, projects: 120, tasks: 800, comments: 20 };

async function signIn(email: string, password: string) {
  const res = await idpCall(t.endpoint, 'InitiateAuth', {
    ClientId: t.config.idp.clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  return res as { status: number; body: { AuthenticationResult?: { AccessToken: string } } };
}

describe('npm run demo', () => {
  it('fills a firm whose printed owner and staff sign in through the identity provider', {
    timeout: 180_000,
  }, async () => {
    const poolName = t.config.idp.userPoolId.split('_')[1] ?? '';
    const storage = await createStorage(t.config);
    const demo = await fillDemo(t.db, { poolName, size: SMALL, storage });
    expect(demo.counts).toMatchObject({ clients: 40, projects: 120, tasks: 800 });
    expect(demo.counts.engagements).toBeGreaterThan(40);
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

    const statuses = await t.db.execute(sql`
      select distinct status from tasks where org_id = ${demo.orgId}::uuid order by status`);
    const list = (statuses as unknown as { rows: { status: string }[] }).rows.map((r) => r.status);
    expect(list).toEqual(['COMPLETED', 'IN_PROGRESS', 'IN_REVIEW', 'SCHEDULED']);
    const [extra] = (
      (await t.db.execute(sql`select
        (select count(*) from task_comments where org_id = ${demo.orgId}::uuid)::int as comments,
        (select count(*) from project_templates where org_id = ${demo.orgId}::uuid)::int as templates,
        (select count(*) from tasks where org_id = ${demo.orgId}::uuid and status <> 'COMPLETED'
          and due_date < current_date)::int as late,
        (select count(*) from system_log where org_id = ${demo.orgId}::uuid)::int as log`)) as unknown as {
        rows: Record<string, number>[];
      }
    ).rows;
    expect(extra?.comments).toBeGreaterThan(0);
    expect(extra?.templates).toBe(4);
    expect(extra?.late).toBeGreaterThan(0);
    expect(extra?.log).toBeGreaterThan(40);

    // Reminders of every type and status, with history; documents with stored bytes, some shared.
    const [more] = (
      (await t.db.execute(sql`select
        (select count(distinct type) from reminders where org_id = ${demo.orgId}::uuid)::int as types,
        (select count(distinct status) from reminders where org_id = ${demo.orgId}::uuid)::int as statuses,
        (select count(*) from reminder_deliveries where org_id = ${demo.orgId}::uuid)::int as deliveries,
        (select count(*) from documents where org_id = ${demo.orgId}::uuid)::int as documents,
        (select count(*) from documents where org_id = ${demo.orgId}::uuid and visible_to_portal)::int as shared,
        (select count(*) from documents where org_id = ${demo.orgId}::uuid and client_id is null)::int as vault,
        (select count(*) from task_attachments where org_id = ${demo.orgId}::uuid)::int as attached`)) as unknown as {
        rows: Record<string, number>[];
      }
    ).rows;
    expect(more).toMatchObject({ types: 3, statuses: 4 });
    expect(more?.deliveries).toBeGreaterThan(5);
    expect(more?.documents).toBeGreaterThan(20);
    expect(more?.shared).toBeGreaterThan(0);
    expect(more?.shared).toBeLessThan(more?.documents ?? 0);
    expect(more?.vault).toBeGreaterThan(0);
    expect(more?.attached).toBeGreaterThan(0);

    // The owner signs in with the printed password and lands on a full dashboard.
    const owner = await signIn(demo.owner.email, demo.password);
    expect(owner.status).toBe(200);
    const ownerApi = t.client(owner.body.AuthenticationResult?.AccessToken);
    const me = await ownerApi.profile.me.query();
    expect(me).toMatchObject({ firstName: 'Meera', isOwner: true });
    const summary = await ownerApi.dashboard.summary.query();
    expect(summary.tasks?.firmOverdue).toBeGreaterThan(0);
    expect(summary.activity.rows.length).toBeGreaterThan(0);

    // The staff member signs in too, and sees only their clients' work.
    const staff = await signIn(demo.staff.email, demo.password);
    expect(staff.status).toBe(200);
    const staffSummary = await t
      .client(staff.body.AuthenticationResult?.AccessToken)
      .dashboard.summary.query();
    expect(staffSummary.tasks?.myOpen).toBeGreaterThan(0);
    expect(staffSummary.tasks?.firmOverdue).toBeLessThan(summary.tasks?.firmOverdue ?? 0);
    expect((await signIn(demo.owner.email, 'Wrong#2026x')).status).toBe(400);

    // The printed portal users sign in with a mailed code; the director acts for two clients.
    expect(demo.portalUsers.map((u) => u.clients.length)).toEqual([2, 1, 1]);
    const director = demo.portalUsers[0];
    if (!director) throw new Error('no portal users');
    await t.client().clientPortalAuth.requestCode.mutate({ email: director.email });
    const code = await t.lastCode(director.email);
    const res = await fetch(`${t.url}/api/trpc/clientPortalAuth.verifyCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: director.email, code } }),
    });
    expect(res.status).toBe(200);
    const token = res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${PORTAL_SESSION_COOKIE}=`))
      ?.split(';')[0]
      ?.split('=')[1];
    const portalMe = await portalClient(t, token).clientPortalProfile.me.query();
    expect(portalMe.clients.map((c) => c.name)).toEqual(director.clients);
  });

  it('refuses a database that already has a firm, and adds a second demo firm with --force', {
    timeout: 180_000,
  }, async () => {
    const poolName = t.config.idp.userPoolId.split('_')[1] ?? '';
    await expect(fillDemo(t.db, { poolName, size: SMALL })).rejects.toBeInstanceOf(DemoRefusedError);
    const second = await fillDemo(t.db, { poolName, size: SMALL, force: true });
    expect(second.owner.email).toBe('meera@sharma-associates-2.test');
    expect((await signIn(second.owner.email, second.password)).status).toBe(200);
  });
});
