import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, notifications, roles } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedPortalUser } from '../../test/portal';
import { portalCookie, portalUpload } from '../../test/portal-world';

// Issue 17, item 2: every client action reaches someone (portalAudience). A client with no team:
// the people on the task, else the firm's admins and owner.

let t: TTestApp;
let dataDir: string;
let firm: Awaited<ReturnType<TTestApp['seedFirm']>>;
let admin: typeof members.$inferSelect;
let limited: typeof members.$inferSelect;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'audience-test-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  firm = await t.seedFirm('No Team & Co');
  const [adminRole, limitedRole] = await t.db
    .insert(roles)
    .values([
      { orgId: firm.org.id, name: 'Admin', permissions: ['clients.all', 'tasks.edit', 'documents.edit'] },
      {
        orgId: firm.org.id,
        name: 'Limited',
        permissions: ['tasks.edit', 'documents.edit'],
        assignedClientsOnly: true,
      },
    ])
    .returning();
  if (!adminRole || !limitedRole) throw new Error('roles not created');
  const [a, l] = await t.db
    .insert(members)
    .values([
      {
        orgId: firm.org.id,
        email: 'ada@no-team.test',
        firstName: 'Ada',
        lastName: 'Admin',
        roleId: adminRole.id,
      },
      {
        orgId: firm.org.id,
        email: 'lim@no-team.test',
        firstName: 'Lim',
        lastName: 'Ited',
        roleId: limitedRole.id,
      },
    ])
    .returning();
  if (!a || !l) throw new Error('members not created');
  admin = a;
  limited = l;
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const told = async (memberId: string, kind: string) =>
  (
    await t.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.memberId, memberId), eq(notifications.kind, kind)))
  ).map((n) => n.title);

/** A client with no team, a portal user for it, and a client to-do (with these assignees). */
async function clientWithoutTeam(name: string, assigneeIds: string[]) {
  const api = t.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: `N${Math.random().toString().slice(2, 9)}`, name });
  const task = await api.tasks.create.mutate({
    title: `To-do for ${name}`,
    clientId: client.id,
    forClient: true,
    assigneeIds,
  });
  const portal = await seedPortalUser(t, { orgId: firm.org.id, clientIds: [client.id], name: 'Ravi Client' });
  return { client, task, portal };
}

describe('a client with no team', () => {
  it('an upload, a to-do done and a comment reach the owner and the admins (not the limited or the staff)', async () => {
    const { client, task, portal } = await clientWithoutTeam('Lonely Traders', []);
    const up = await portalUpload(t, portalCookie(portal.token), { clientId: client.id }, 'gst.pdf', 'gst');
    expect(up.status).toBe(201);
    await portal.client.clientPortalTasks.comment.mutate({
      clientId: client.id,
      taskId: task.id,
      body: 'Sent',
    });
    await portal.client.clientPortalTasks.complete.mutate({ clientId: client.id, taskId: task.id });

    for (const who of [firm.owner.id, admin.id]) {
      expect(await told(who, 'document.uploaded')).toContain(
        'Ravi Client uploaded “gst.pdf” for Lonely Traders',
      );
      expect(await told(who, 'task.client_update')).toEqual(
        expect.arrayContaining([
          'Ravi Client (Lonely Traders) commented on “To-do for Lonely Traders”',
          'Ravi Client (Lonely Traders) marked “To-do for Lonely Traders” done',
        ]),
      );
    }
    for (const who of [firm.staff.id, limited.id]) {
      expect(await told(who, 'document.uploaded')).toEqual([]);
      expect(await told(who, 'task.client_update')).toEqual([]);
    }
  });

  it('a to-do with an assignee reaches the assignee only, and so does an upload to it', async () => {
    const { client, task, portal } = await clientWithoutTeam('Assigned Traders', [firm.staff.id]);
    const up = await portalUpload(
      t,
      portalCookie(portal.token),
      { clientId: client.id, taskId: task.id },
      'bank.pdf',
      'bank',
    );
    expect(up.status).toBe(201);
    await portal.client.clientPortalTasks.complete.mutate({ clientId: client.id, taskId: task.id });

    expect(await told(firm.staff.id, 'task.client_update')).toContain(
      'Ravi Client (Assigned Traders) marked “To-do for Assigned Traders” done',
    );
    expect(await told(firm.staff.id, 'document.uploaded')).toContain(
      'Ravi Client uploaded “bank.pdf” for Assigned Traders',
    );
    for (const who of [firm.owner.id, admin.id]) {
      expect((await told(who, 'task.client_update')).filter((n) => n.includes('Assigned Traders'))).toEqual(
        [],
      );
      expect((await told(who, 'document.uploaded')).filter((n) => n.includes('Assigned Traders'))).toEqual(
        [],
      );
    }
  });

  it('a to-do with nobody on it, in a project, reaches the project’s owner', async () => {
    const api = t.client(firm.owner.token);
    const { client, portal } = await clientWithoutTeam('Project Traders', []);
    const project = await api.projects.create.mutate({
      clientId: client.id,
      name: 'Project Traders audit',
      ownerId: firm.staff.id,
    });
    const task = await api.tasks.create.mutate({
      title: 'Sign the audit letter',
      clientId: client.id,
      projectId: project.id,
      forClient: true,
    });
    await portal.client.clientPortalTasks.comment.mutate({
      clientId: client.id,
      taskId: task.id,
      body: 'Signed',
    });
    expect(await told(firm.staff.id, 'task.client_update')).toContain(
      'Ravi Client (Project Traders) commented on “Sign the audit letter”',
    );
    expect((await told(admin.id, 'task.client_update')).filter((n) => n.includes('Project Traders'))).toEqual(
      [],
    );
  });

  it('an assignee who was disabled does not swallow it: the admins hear instead', async () => {
    const { client, task, portal } = await clientWithoutTeam('Gone Traders', [limited.id]);
    await t.db.update(members).set({ status: 'disabled' }).where(eq(members.id, limited.id));
    try {
      await portal.client.clientPortalTasks.complete.mutate({ clientId: client.id, taskId: task.id });
      expect(await told(admin.id, 'task.client_update')).toContain(
        'Ravi Client (Gone Traders) marked “To-do for Gone Traders” done',
      );
    } finally {
      await t.db.update(members).set({ status: 'active' }).where(eq(members.id, limited.id));
    }
  });
});
