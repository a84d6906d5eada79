import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, page, putOnTeam, seedClient } from '../../test/fixtures';
import { membersForSeededRoles } from '../../test/role-members';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const groupOf = async (clientId: string) =>
  (await t.db.select({ groupId: clients.groupId }).from(clients).where(eq(clients.id, clientId)))[0]?.groupId;

describe('client groups', () => {
  it('creates, lists with client counts, updates, adds and removes clients, each change audited', async () => {
    const firm = await t.seedFirm('Groups & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.clientGroups.create.mutate({ name: ' Mehta family ', description: 'Household' });
    await api.clientGroups.create.mutate({ name: 'Acme group' });
    const a = await seedClient(t, firm.org.id, { name: 'Anil Mehta' });
    const b = await seedClient(t, firm.org.id, { name: 'Bina Mehta' });
    const c = await seedClient(t, firm.org.id, { name: 'Chetan Rao' });

    const candidates = await api.clientGroups.candidates.query({ groupId: id, search: 'mehta' });
    expect(candidates.map((r) => r.name)).toEqual(['Anil Mehta', 'Bina Mehta']);
    expect(await api.clientGroups.addClients.mutate({ groupId: id, clientIds: [a.id, b.id, a.id] })).toEqual({
      added: 2,
    });
    expect(await groupOf(a.id)).toBe(id);
    expect((await api.clientGroups.candidates.query({ groupId: id, search: '' })).map((r) => r.name)).toEqual(
      ['Chetan Rao'],
    );

    const list = await api.clientGroups.list.query(page);
    expect(list.rows.map((r) => [r.name, r.clientCount])).toEqual([
      ['Acme group', 0],
      ['Mehta family', 2],
    ]);
    const got = await api.clientGroups.get.query({ groupId: id, page: 1, pageSize: 1 });
    expect(got).toMatchObject({ name: 'Mehta family', description: 'Household' });
    expect(got.clients.total).toBe(2);
    expect(got.clients.rows.map((r) => r.name)).toEqual(['Anil Mehta']);

    await api.clientGroups.update.mutate({ groupId: id, name: 'Mehta household', description: 'Household' });
    expect(await api.clientGroups.removeClients.mutate({ groupId: id, clientIds: [a.id, c.id] })).toEqual({
      removed: 1,
    });
    expect(await groupOf(a.id)).toBeNull();
    expect(await groupOf(c.id)).toBeNull();

    const log = await logRows(t, firm.org.id, id);
    expect(log.map((r) => r.action)).toEqual([
      'clientGroup.create',
      'clientGroup.addClients',
      'clientGroup.update',
      'clientGroup.removeClients',
    ]);
    expect(log[2]?.changes).toEqual({ name: { from: 'Mehta family', to: 'Mehta household' } });
    expect(log[1]?.summary).toBe('Added 2 clients to Mehta family: Anil Mehta, Bina Mehta');
  });

  it('refuses to delete a group that still has clients, deletes an empty one', async () => {
    const firm = await t.seedFirm('Delete & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.clientGroups.create.mutate({ name: 'Busy' });
    const client = await seedClient(t, firm.org.id, { groupId: id });
    await expect(api.clientGroups.delete.mutate({ groupId: id })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'Busy still has 1 client: remove them from the group before deleting it',
    });
    await api.clientGroups.removeClients.mutate({ groupId: id, clientIds: [client.id] });
    await api.clientGroups.delete.mutate({ groupId: id });
    await expect(api.clientGroups.get.query({ groupId: id, ...page })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect((await logRows(t, firm.org.id, id)).at(-1)?.action).toBe('clientGroup.delete');
  });

  it('answers a duplicate name with CONFLICT and bad input with a readable message', async () => {
    const firm = await t.seedFirm('Names & Co');
    const api = t.client(firm.owner.token);
    await api.clientGroups.create.mutate({ name: 'Family' });
    await expect(api.clientGroups.create.mutate({ name: 'Family' })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'Another group is already called Family',
    });
    await expect(api.clientGroups.create.mutate({ name: ' ' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'Enter the group name',
    });
    const { id } = await api.clientGroups.create.mutate({ name: 'Other' });
    await expect(api.clientGroups.addClients.mutate({ groupId: id, clientIds: [] })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'Choose at least one client',
    });
  });

  it('hides another firm’s groups and clients: NOT_FOUND', async () => {
    const firm = await t.seedFirm('Mine & Co');
    const other = await t.seedFirm('Theirs & Co');
    const theirs = await t.client(other.owner.token).clientGroups.create.mutate({ name: 'Theirs' });
    const theirClient = await seedClient(t, other.org.id);
    const api = t.client(firm.owner.token);
    const mine = await api.clientGroups.create.mutate({ name: 'Mine' });
    const notFound = { data: { code: 'NOT_FOUND' } };
    await expect(api.clientGroups.get.query({ groupId: theirs.id, ...page })).rejects.toMatchObject(notFound);
    await expect(api.clientGroups.update.mutate({ groupId: theirs.id, name: 'x' })).rejects.toMatchObject(
      notFound,
    );
    await expect(api.clientGroups.delete.mutate({ groupId: theirs.id })).rejects.toMatchObject(notFound);
    await expect(
      api.clientGroups.addClients.mutate({ groupId: theirs.id, clientIds: [theirClient.id] }),
    ).rejects.toMatchObject(notFound);
    await expect(
      api.clientGroups.addClients.mutate({ groupId: mine.id, clientIds: [theirClient.id] }),
    ).rejects.toMatchObject(notFound);
    await expect(api.clientGroups.candidates.query({ groupId: theirs.id })).rejects.toMatchObject(notFound);
    expect(await groupOf(theirClient.id)).toBeNull();
    expect((await api.clientGroups.list.query(page)).rows.map((r) => r.name)).toEqual(['Mine']);
  });

  it('follows the seeded roles; a Staff member (no group rights) is refused', async () => {
    const firm = await t.seedFirm('Matrix & Co');
    const people = await membersForSeededRoles(t, firm);
    const client = await seedClient(t, firm.org.id);
    const allowed: Record<string, boolean> = { Owner: true, Admin: true, Manager: true, Staff: false };
    for (const person of people) {
      const api = t.client(person.token);
      const ok = allowed[person.role];
      const calls = [
        () => api.clientGroups.list.query(page),
        async () => {
          const g = await api.clientGroups.create.mutate({ name: `By ${person.role}` });
          await api.clientGroups.addClients.mutate({ groupId: g.id, clientIds: [client.id] });
          await api.clientGroups.removeClients.mutate({ groupId: g.id, clientIds: [client.id] });
          await api.clientGroups.update.mutate({ groupId: g.id, name: `Renamed by ${person.role}` });
          return api.clientGroups.delete.mutate({ groupId: g.id });
        },
      ];
      for (const call of calls) {
        if (ok) await expect(call()).resolves.toBeTruthy();
        else await expect(call()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
      }
    }
  });

  it('an assigned-clients-only role sees and moves only the clients on its team', async () => {
    const firm = await t.seedFirm('Assigned & Co');
    const people = await membersForSeededRoles(t, firm);
    const staff = people.find((p) => p.role === 'Staff');
    if (!staff) throw new Error('no staff');
    // A custom grant: Staff may manage groups, still limited to assigned clients.
    const { roles, members } = await import('../../db/schema');
    const [m] = await t.db.select().from(members).where(eq(members.id, staff.id));
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'clientGroups.view', 'clientGroups.edit'] })
      .where(eq(roles.id, m?.roleId ?? ''));
    const { id } = await t.client(firm.owner.token).clientGroups.create.mutate({ name: 'Mixed' });
    const mine = await seedClient(t, firm.org.id, { name: 'Assigned one', groupId: id });
    const hidden = await seedClient(t, firm.org.id, { name: 'Hidden one', groupId: id });
    await putOnTeam(t, firm.org.id, mine.id, staff.id);
    const api = t.client(staff.token);
    const got = await api.clientGroups.get.query({ groupId: id, ...page });
    expect(got.clients.rows.map((r) => r.name)).toEqual(['Assigned one']);
    await expect(
      api.clientGroups.removeClients.mutate({ groupId: id, clientIds: [hidden.id] }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    await api.clientGroups.removeClients.mutate({ groupId: id, clientIds: [mine.id] });
  });
});
