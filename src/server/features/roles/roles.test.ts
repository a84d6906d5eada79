import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../../domain/permissions';
import { memberInvites, roles, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedFirmWithRoles, type TSeededRoleName } from '../../test/seeded-firm';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const page = { page: 1, pageSize: 50 };

async function logRows(orgId: string, recordId: string) {
  return t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), eq(systemLog.recordId, recordId)))
    .orderBy(systemLog.at);
}

describe('roles', () => {
  it('lists the firm roles with their member counts, the Owner first and read-only', async () => {
    const firm = await seedFirmWithRoles(t, 'List & Co');
    const list = await t.client(firm.owner.token).roles.list.query(page);
    expect(list.total).toBe(4);
    expect(list.rows.map((r) => r.name)).toEqual(['Owner', 'Staff', 'Admin', 'Manager']);
    expect(list.rows.find((r) => r.name === 'Owner')).toMatchObject({ isOwnerRole: true, memberCount: 1 });
    expect(list.rows.find((r) => r.name === 'Staff')).toMatchObject({ isOwnerRole: false, memberCount: 1 });
    const searched = await t.client(firm.owner.token).roles.list.query({ ...page, search: 'manag' });
    expect(searched.rows.map((r) => r.name)).toEqual(['Manager']);
  });

  it('creates, reads, updates and deletes a custom role, each change audited', async () => {
    const firm = await seedFirmWithRoles(t, 'Crud & Co');
    const api = t.client(firm.owner.token);
    const created = await api.roles.create.mutate({
      name: '  Article assistant ',
      description: 'Trainees',
      permissions: ['tasks.view', 'clients.view', 'tasks.edit'],
      assignedClientsOnly: true,
    });
    expect(created).toMatchObject({
      name: 'Article assistant',
      description: 'Trainees',
      // Stored in the catalogue's order, whatever order they were sent in.
      permissions: ['clients.view', 'tasks.view', 'tasks.edit'],
      assignedClientsOnly: true,
      memberCount: 0,
      isOwnerRole: false,
    });
    expect(await api.roles.get.query({ id: created.id })).toMatchObject({ name: 'Article assistant' });

    const updated = await api.roles.update.mutate({
      id: created.id,
      name: 'Articled clerk',
      description: 'Trainees',
      permissions: ['clients.view', 'tasks.view'],
      assignedClientsOnly: false,
    });
    expect(updated).toMatchObject({ name: 'Articled clerk', permissions: ['clients.view', 'tasks.view'] });

    await api.roles.delete.mutate({ id: created.id });
    await expect(api.roles.get.query({ id: created.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });

    const log = await logRows(firm.org.id, created.id);
    expect(log.map((r) => r.action)).toEqual(['role.create', 'role.update', 'role.delete']);
    expect(log.every((r) => r.actorMemberId === firm.owner.id && r.recordType === 'role')).toBe(true);
    expect(log[1]?.changes).toEqual({
      name: { from: 'Article assistant', to: 'Articled clerk' },
      permissions: { from: ['clients.view', 'tasks.view', 'tasks.edit'], to: ['clients.view', 'tasks.view'] },
      assignedClientsOnly: { from: true, to: false },
    });
    expect(log[2]?.summary).toBe('Deleted the role Articled clerk');
  });

  it('writes no log row for an update that changes nothing', async () => {
    const firm = await seedFirmWithRoles(t, 'Noop & Co');
    const api = t.client(firm.owner.token);
    const role = await api.roles.create.mutate({ name: 'Reader', permissions: ['clients.view'] });
    await api.roles.update.mutate({ id: role.id, name: 'Reader', permissions: ['clients.view'] });
    expect((await logRows(firm.org.id, role.id)).map((r) => r.action)).toEqual(['role.create']);
  });

  it('refuses a duplicate name (case-insensitive), an unknown right and an empty name', async () => {
    const firm = await seedFirmWithRoles(t, 'Dupes & Co');
    const api = t.client(firm.owner.token);
    await expect(api.roles.create.mutate({ name: 'staff', permissions: [] })).rejects.toMatchObject({
      message: 'A role named "staff" already exists',
      data: { code: 'CONFLICT' },
    });
    await expect(api.roles.create.mutate({ name: 'OWNER', permissions: [] })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    await expect(
      api.roles.create.mutate({ name: 'X', permissions: ['clients.fly' as never] }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await expect(api.roles.create.mutate({ name: '   ', permissions: [] })).rejects.toMatchObject({
      message: expect.stringContaining('Give the role a name'),
      data: { code: 'BAD_REQUEST' },
    });
    const manager = (await api.roles.list.query(page)).rows.find((r) => r.name === 'Manager');
    await expect(
      api.roles.update.mutate({ id: manager?.id ?? '', name: 'Admin', permissions: [] }),
    ).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
  });

  it('keeps the Owner role: it cannot be edited or deleted, even by the owner', async () => {
    const firm = await seedFirmWithRoles(t, 'Owner & Co');
    const api = t.client(firm.owner.token);
    await expect(
      api.roles.update.mutate({ id: firm.roles.owner.id, name: 'Owner', permissions: ['clients.view'] }),
    ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    await expect(api.roles.delete.mutate({ id: firm.roles.owner.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const owner = await api.roles.get.query({ id: firm.roles.owner.id });
    expect(owner.permissions).toHaveLength(ALL_PERMISSIONS.length);
  });

  it('gives the Owner role every right, even one added after the firm stored its list', async () => {
    const firm = await seedFirmWithRoles(t, 'Older & Co');
    const stale = ALL_PERMISSIONS.filter((p) => !p.startsWith('timesheets.'));
    await t.db.update(roles).set({ permissions: stale }).where(eq(roles.id, firm.roles.owner.id));
    const api = t.client(firm.owner.token);
    expect((await api.roles.get.query({ id: firm.roles.owner.id })).permissions).toEqual([
      ...ALL_PERMISSIONS,
    ]);
    const listed = (await api.roles.list.query(page)).rows.find((r) => r.isOwnerRole);
    expect(listed?.permissions).toEqual([...ALL_PERMISSIONS]);
    // And its holder may use them: approving a week, seeing the team's money.
    await expect(api.timesheets.rates.members.query(page)).resolves.toMatchObject({ total: 4 });
    await expect(
      api.timesheets.approve.mutate({ weekStart: '2026-03-02', memberIds: [firm.staff.id] }),
    ).rejects.toMatchObject({ data: { code: 'PRECONDITION_FAILED' } });
  });

  it('lets the seeded non-owner roles be edited', async () => {
    const firm = await seedFirmWithRoles(t, 'Seeded & Co');
    const api = t.client(firm.owner.token);
    const staff = await api.roles.update.mutate({
      id: firm.roles.staff.id,
      name: 'Staff',
      description: 'Works on assigned clients',
      permissions: ['clients.view', 'reports.view'],
      assignedClientsOnly: true,
    });
    expect(staff.permissions).toEqual(['clients.view', 'reports.view']);
  });

  it('refuses to delete a role that members hold or an open invitation uses', async () => {
    const firm = await seedFirmWithRoles(t, 'InUse & Co');
    const api = t.client(firm.owner.token);
    await expect(api.roles.delete.mutate({ id: firm.roles.staff.id })).rejects.toMatchObject({
      message: 'The role Staff is in use: 1 member has it. Move them to another role first.',
      data: { code: 'CONFLICT' },
    });
    const invited = await api.roles.create.mutate({ name: 'Invited only', permissions: [] });
    const [invite] = await t.db
      .insert(memberInvites)
      .values({
        orgId: firm.org.id,
        email: 'new@example.test',
        roleId: invited.id,
        keyHash: randomUUID(),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    expect((await api.roles.get.query({ id: invited.id })).openInviteCount).toBe(1);
    await expect(api.roles.delete.mutate({ id: invited.id })).rejects.toMatchObject({
      message: expect.stringContaining('1 open invitation uses it'),
    });
    // A revoked invitation no longer holds the role.
    await t.db
      .update(memberInvites)
      .set({ revokedAt: new Date() })
      .where(eq(memberInvites.id, invite?.id ?? ''));
    await api.roles.delete.mutate({ id: invited.id });
  });

  it('does not let a member grant rights they do not hold', async () => {
    const firm = await seedFirmWithRoles(t, 'Escalate & Co');
    // Admin holds every right but billing settings.
    const admin = t.client(firm.admin.token);
    await expect(
      admin.roles.create.mutate({ name: 'Billing', permissions: ['settings.billing'] }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: expect.stringContaining('settings.billing'),
    });
    await expect(
      admin.roles.update.mutate({
        id: firm.roles.admin.id,
        name: 'Admin',
        permissions: ['settings.billing'],
      }),
    ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    // What the role already had may stay, even if the editor lacks it.
    const owner = t.client(firm.owner.token);
    const role = await owner.roles.create.mutate({ name: 'Biller', permissions: ['settings.billing'] });
    const kept = await admin.roles.update.mutate({
      id: role.id,
      name: 'Biller',
      permissions: ['settings.billing', 'clients.view'],
    });
    expect(kept.permissions).toEqual(['clients.view', 'settings.billing']);
  });
});

describe('permission matrix: each seeded role × each roles and systemLog procedure', () => {
  const expected: Record<TSeededRoleName, boolean> = {
    Owner: true,
    Admin: true,
    Manager: false,
    Staff: false,
  };
  const missing = randomUUID();
  const calls: Record<string, (api: ReturnType<TTestApp['client']>) => Promise<unknown>> = {
    'roles.list': (api) => api.roles.list.query(page),
    'roles.get': (api) => api.roles.get.query({ id: missing }),
    'roles.create': (api) => api.roles.create.mutate({ name: `Role ${randomUUID()}`, permissions: [] }),
    'roles.update': (api) => api.roles.update.mutate({ id: missing, name: 'Nope', permissions: [] }),
    'roles.delete': (api) => api.roles.delete.mutate({ id: missing }),
    'systemLog.list': (api) => api.systemLog.list.query(page),
    'systemLog.facets': (api) => api.systemLog.facets.query(),
  };

  for (const role of Object.keys(expected) as TSeededRoleName[]) {
    it(`${role}: ${expected[role] ? 'allowed' : 'FORBIDDEN'}`, async () => {
      const firm = await seedFirmWithRoles(t, `Matrix ${role}`);
      const api = t.client(firm.members[role].token);
      for (const [name, call] of Object.entries(calls)) {
        const outcome = await call(api).then(
          () => 'allowed',
          (error: { data?: { code?: string } }) => error.data?.code,
        );
        // An allowed call on a missing id answers NOT_FOUND: past the permission check.
        const allowed = outcome === 'allowed' || outcome === 'NOT_FOUND';
        expect({ name, allowed }).toEqual({ name, allowed: expected[role] });
        if (!expected[role]) expect({ name, outcome }).toEqual({ name, outcome: 'FORBIDDEN' });
      }
      const exported = await fetch(`${t.url}/api/systemlog/export.csv`, {
        headers: { authorization: `Bearer ${firm.members[role].token}` },
      });
      await exported.text();
      expect(exported.status).toBe(expected[role] ? 200 : 403);
    });
  }
});

describe('cross-org', () => {
  it("answers NOT_FOUND for another firm's role and never lists it", async () => {
    const a = await seedFirmWithRoles(t, 'Alpha');
    const b = await seedFirmWithRoles(t, 'Beta');
    const api = t.client(b.owner.token);
    const target = a.roles.manager.id;
    for (const call of [
      () => api.roles.get.query({ id: target }),
      () => api.roles.update.mutate({ id: target, name: 'Hijacked', permissions: [] }),
      () => api.roles.delete.mutate({ id: target }),
    ]) {
      await expect(call()).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
    const list = await api.roles.list.query(page);
    expect(list.rows.some((r) => r.id === target)).toBe(false);
    const still = await t.client(a.owner.token).roles.get.query({ id: target });
    expect(still.name).toBe('Manager');
  });
});
