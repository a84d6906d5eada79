import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientGroups, clientServices, clients, clientTeam, services, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles, type TRoleMember } from '../../test/role-members';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const logOf = (orgId: string, action: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), like(systemLog.action, action)))
    .orderBy(systemLog.at);

async function firmWithClients(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const [group] = await t.db
    .insert(clientGroups)
    .values({ orgId: firm.org.id, name: 'Mehta family' })
    .returning();
  const [service] = await t.db
    .insert(services)
    .values({ orgId: firm.org.id, name: 'GST returns', code: 'GST' })
    .returning();
  if (!group || !service) throw new Error('seed failed');
  const make = (code: string, nm: string, extra: Record<string, unknown> = {}) =>
    api.clients.create.mutate({ code, name: nm, ...extra });
  const mehta = await make('C001', 'Rakesh Mehta', {
    type: 'individual',
    groupId: group.id,
    email: 'rakesh@mehta.test',
    tags: ['vip', 'gst'],
    country: 'IN',
    taxIds: [{ kind: 'PAN', value: 'ABCDE1234F' }],
  });
  const sharma = await make('C002', 'Sharma Traders', { type: 'partnership', tags: ['gst'] });
  const acme = await make('C003', 'Acme Private Limited', { type: 'company', status: 'inactive' });
  const bose = await make('C004', 'Anita Bose', { type: 'individual', groupId: group.id });
  await t.db
    .insert(clientServices)
    .values({ orgId: firm.org.id, clientId: sharma.id, serviceId: service.id, startDate: '2026-04-01' });
  await t.db.insert(clientTeam).values({ orgId: firm.org.id, clientId: acme.id, memberId: firm.staff.id });
  return { firm, api, group, service, mehta, sharma, acme, bose };
}

describe('list', () => {
  it('searches with typo tolerance, by code, email and tax id, and orders by relevance', async () => {
    const { api } = await firmWithClients('Search');
    const names = async (search: string) =>
      (await api.clients.list.query({ search })).rows.map((r) => r.name);
    expect(await names('Mehta')).toEqual(['Rakesh Mehta']);
    expect(await names('Mehtta')).toEqual(['Rakesh Mehta']);
    expect(await names('c003')).toEqual(['Acme Private Limited']);
    expect(await names('rakesh@mehta')).toEqual(['Rakesh Mehta']);
    expect(await names('ABCDE1234F')).toEqual(['Rakesh Mehta']);
    expect(await names('trad')).toEqual(['Sharma Traders']);
    expect(await names('zzzzqqq')).toEqual([]);
    // Wildcards in the term are literal.
    expect(await names('%')).toEqual([]);
  });

  it('filters by type, group, service, member, status, tags and archived', async () => {
    const { firm, api, group, service, mehta } = await firmWithClients('Filters');
    const codes = async (input: Parameters<typeof api.clients.list.query>[0]) =>
      (await api.clients.list.query({ sort: 'code', ...input })).rows.map((r) => r.code);
    expect(await codes({})).toEqual(['C001', 'C002', 'C003', 'C004']);
    expect(await codes({ type: 'individual' })).toEqual(['C001', 'C004']);
    expect(await codes({ groupId: group.id })).toEqual(['C001', 'C004']);
    expect(await codes({ serviceId: service.id })).toEqual(['C002']);
    expect(await codes({ memberId: firm.staff.id })).toEqual(['C003']);
    expect(await codes({ status: 'inactive' })).toEqual(['C003']);
    expect(await codes({ tags: ['gst'] })).toEqual(['C001', 'C002']);
    expect(await codes({ tags: ['gst', 'vip'] })).toEqual(['C001']);
    await api.clients.archive.mutate({ clientId: mehta.id });
    expect(await codes({})).toEqual(['C002', 'C003', 'C004']);
    expect(await codes({ archived: 'only' })).toEqual(['C001']);
    expect(await codes({ archived: 'include' })).toEqual(['C001', 'C002', 'C003', 'C004']);
    const list = await api.clients.list.query({ archived: 'only' });
    expect(list.rows[0]).toMatchObject({
      group: { id: group.id, name: 'Mehta family' },
      tags: ['vip', 'gst'],
    });
  });

  it('sorts, pages by offset and by keyset cursor with the same rows', async () => {
    const firm = await t.seedFirm('Pages');
    const api = t.client(firm.owner.token);
    for (let i = 0; i < 25; i++) {
      await api.clients.create.mutate({
        code: `K${String(i).padStart(3, '0')}`,
        name: `Client ${String.fromCharCode(90 - i)}`,
      });
    }
    const byName = await api.clients.list.query({ sort: 'name', pageSize: 100 });
    expect(byName.total).toBe(25);
    expect(byName.rows.map((r) => r.name)).toEqual([...byName.rows.map((r) => r.name)].sort());
    const byCodeDesc = await api.clients.list.query({ sort: 'code', direction: 'desc', pageSize: 3 });
    expect(byCodeDesc.rows.map((r) => r.code)).toEqual(['K024', 'K023', 'K022']);
    const page2 = await api.clients.list.query({ sort: 'code', page: 2, pageSize: 10 });
    expect(page2.rows.map((r) => r.code)[0]).toBe('K010');
    expect(page2.total).toBe(25);

    for (const sort of ['name', 'code', 'createdAt'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const all = (await api.clients.list.query({ sort, direction, pageSize: 100 })).rows.map((r) => r.id);
        const walked: string[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 10; i++) {
          const page = await api.clients.list.query({ sort, direction, pageSize: 7, cursor });
          walked.push(...page.rows.map((r) => r.id));
          expect(page.total).toBe(25);
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
        expect(walked).toEqual(all);
      }
    }
    await expect(api.clients.list.query({ cursor: 'bm90LWEtY3Vyc29y' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('pages a search by number with its total, names starting with the term first', async () => {
    const firm = await t.seedFirm('Search pages');
    const api = t.client(firm.owner.token);
    const names = ['Amit Patel', 'Patel Exports', 'Zara Patel', 'Bina Patel', 'Patella Foods', 'Kumar & Co'];
    for (const [i, name] of names.entries()) {
      await api.clients.create.mutate({ code: `P${i}`, name, type: i % 2 ? 'company' : 'individual' });
    }
    const first = await api.clients.list.query({ search: 'patel', pageSize: 2 });
    expect(first.total).toBe(5);
    expect(first.rows.map((r) => r.name)).toEqual(['Patel Exports', 'Patella Foods']);
    const second = await api.clients.list.query({ search: 'patel', pageSize: 2, page: 2 });
    expect(second.rows.map((r) => r.name)).toEqual(['Amit Patel', 'Bina Patel']);
    // Past the end the total still says how many there are.
    const beyond = await api.clients.list.query({ search: 'patel', pageSize: 2, page: 9 });
    expect(beyond).toMatchObject({ rows: [], total: 5 });
    // The type filter and the search narrow together (served by one GIN index).
    const companies = await api.clients.list.query({ search: 'patel', type: 'company' });
    expect(companies.rows.map((r) => r.name)).toEqual(['Patel Exports', 'Bina Patel']);
    // Typo fallback only when nothing matches as typed.
    const typo = (await api.clients.list.query({ search: 'pattel' })).rows.map((r) => r.name);
    expect(typo).toEqual(expect.arrayContaining(['Amit Patel', 'Zara Patel', 'Patel Exports']));
    expect(typo).not.toContain('Kumar & Co');
    await expect(
      api.clients.list.query({ search: 'patel', cursor: 'bm90LWEtY3Vyc29y' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('counts every match in the total, not just the page', async () => {
    const { api } = await firmWithClients('Queries');
    const page = await api.clients.list.query({ pageSize: 2 });
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBe(4);
  });
});

describe('assigned clients only', () => {
  it('a Staff member sees, opens and edits only the clients they are on the team of', async () => {
    const { firm, acme, mehta } = await firmWithClients('Assigned');
    const roleMembers = await membersForSeededRoles(t, firm);
    const staff = roleMembers.find((m) => m.role === 'Staff') as TRoleMember;
    const manager = roleMembers.find((m) => m.role === 'Manager') as TRoleMember;
    const staffApi = t.client(staff.token);
    expect((await staffApi.clients.list.query({})).total).toBe(0);
    await t.db.insert(clientTeam).values({ orgId: firm.org.id, clientId: acme.id, memberId: staff.id });
    const seen = await staffApi.clients.list.query({});
    expect(seen.rows.map((r) => r.code)).toEqual(['C003']);
    expect((await staffApi.clients.get.query({ clientId: acme.id })).code).toBe('C003');
    await expect(staffApi.clients.get.query({ clientId: mehta.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect((await staffApi.clients.list.query({ search: 'Mehta' })).total).toBe(0);
    // A Manager holds clients.all.
    expect((await t.client(manager.token).clients.list.query({})).total).toBe(4);
  });
});

describe('mutations', () => {
  it('creates, updates with a diff, archives and restores, each audited', async () => {
    const firm = await t.seedFirm('Mutations');
    const api = t.client(firm.owner.token);
    const created = await api.clients.create.mutate({
      code: 'M-1',
      name: '  Meera Iyer ',
      email: ' Meera@Iyer.TEST ',
      location: { lat: 19.076, lng: 72.8777 },
      tags: ['VIP', 'vip'],
    });
    const got = await api.clients.get.query({ clientId: created.id });
    expect(got).toMatchObject({
      name: 'Meera Iyer',
      email: 'meera@iyer.test',
      location: { lat: 19.076, lng: 72.8777 },
      tags: ['vip'],
      group: null,
      team: [],
      counts: { team: 0, services: 0 },
    });
    expect((await logOf(firm.org.id, 'client.create'))[0]?.summary).toBe('Created client Meera Iyer (M-1)');

    await api.clients.update.mutate({
      clientId: created.id,
      data: {
        code: 'M-1',
        name: 'Meera Iyer',
        email: 'meera@iyer.test',
        phone: '+91 98200 00000',
        tags: ['vip'],
        location: { lat: 19.076, lng: 72.8777 },
      },
    });
    const [updated] = await logOf(firm.org.id, 'client.update');
    expect(updated?.changes).toEqual({ phone: { from: null, to: '+91 98200 00000' } });
    // Saving unchanged writes no log row.
    await api.clients.update.mutate({
      clientId: created.id,
      data: {
        code: 'M-1',
        name: 'Meera Iyer',
        email: 'meera@iyer.test',
        phone: '+91 98200 00000',
        tags: ['vip'],
        location: { lat: 19.076, lng: 72.8777 },
      },
    });
    expect(await logOf(firm.org.id, 'client.update')).toHaveLength(1);

    await api.clients.archive.mutate({ clientId: created.id });
    expect((await api.clients.get.query({ clientId: created.id })).archivedAt).toBeInstanceOf(Date);
    await api.clients.restore.mutate({ clientId: created.id });
    expect((await api.clients.get.query({ clientId: created.id })).archivedAt).toBeNull();
    expect((await logOf(firm.org.id, 'client.archive')).map((r) => r.summary)).toEqual([
      'Archived client Meera Iyer (M-1)',
    ]);
    expect(await logOf(firm.org.id, 'client.restore')).toHaveLength(1);
  });

  it('refuses a duplicate code with CONFLICT, whatever its case', async () => {
    const firm = await t.seedFirm('Duplicates');
    const api = t.client(firm.owner.token);
    const a = await api.clients.create.mutate({ code: 'D1', name: 'First Client' });
    await expect(api.clients.create.mutate({ code: 'd1', name: 'Second Client' })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'The code D1 is already used by First Client: choose another code',
    });
    const b = await api.clients.create.mutate({ code: 'D2', name: 'Second Client' });
    await expect(
      api.clients.update.mutate({ clientId: b.id, data: { code: 'D1', name: 'Second Client' } }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    // Another firm may use the same code.
    const other = await t.seedFirm('Duplicates 2');
    await t.client(other.owner.token).clients.create.mutate({ code: 'D1', name: 'Theirs' });
    expect(a.code).toBe('D1');
  });

  it('validates with messages a person can act on, never a 500', async () => {
    const firm = await t.seedFirm('Validation');
    const api = t.client(firm.owner.token);
    const bad = async (input: unknown, message: string) => {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const err = await api.clients.create.mutate(input as any).catch((e) => e);
      expect(err.data.code).toBe('BAD_REQUEST');
      expect(err.message).toContain(message);
    };
    await bad(
      { code: 'has space', name: 'Someone' },
      'Use letters, digits, dashes and underscores only in the code',
    );
    await bad({ code: 'X'.repeat(21), name: 'Someone' }, 'Client code must be at most 20 characters');
    await bad({ code: 'X1', name: 'S' }, 'Client name must be at least 2 characters');
    await bad({ code: 'X1', name: 'Someone', email: 'not-an-email' }, 'Enter a valid email address');
    await bad({ code: 'X1', name: 'Someone', type: 'alien' }, 'Choose a client type');
    await bad(
      { code: 'X1', name: 'Someone', location: { lat: 91, lng: 0 } },
      'Latitude must be between -90 and 90',
    );
    await bad(
      { code: 'X1', name: 'Someone', country: 'IN', taxIds: [{ kind: 'EIN', value: '12-345' }] },
      'Choose one of PAN, TAN, GSTIN',
    );
    await bad({ code: 'X1', name: 'Someone', groupId: 'nope' }, 'Choose a group from the list');
    await expect(api.clients.get.query({ clientId: 'nope' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await expect(
      api.clients.create.mutate({
        code: 'X1',
        name: 'Someone',
        groupId: '00000000-0000-4000-8000-000000000000',
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' }, message: 'Group not found' });
    await expect(api.clients.list.query({ pageSize: 1000 })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('bulk actions: one statement each, audited once with the count', async () => {
    const { firm, api, group, mehta, sharma, acme, bose } = await firmWithClients('Bulk');
    const ids = [mehta.id, sharma.id, acme.id];
    expect(
      await api.clients.bulk.mutate({ ids, action: { kind: 'assignMember', memberId: firm.staff.id } }),
    ).toEqual({ affected: 2 });
    expect(await api.clients.bulk.mutate({ ids, action: { kind: 'setGroup', groupId: group.id } })).toEqual({
      affected: 3,
    });
    expect(await api.clients.bulk.mutate({ ids, action: { kind: 'addTag', tag: 'Audit' } })).toEqual({
      affected: 3,
    });
    expect(await api.clients.bulk.mutate({ ids, action: { kind: 'removeTag', tag: 'gst' } })).toEqual({
      affected: 2,
    });
    expect(await api.clients.bulk.mutate({ ids, action: { kind: 'setStatus', status: 'inactive' } })).toEqual(
      { affected: 2 },
    );
    const codes = async (input: Parameters<typeof api.clients.list.query>[0]) =>
      (await api.clients.list.query({ sort: 'code', ...input })).rows.map((r) => r.code);
    expect(await codes({ memberId: firm.staff.id })).toEqual(['C001', 'C002', 'C003']);
    expect(await codes({ groupId: group.id })).toEqual(['C001', 'C002', 'C003', 'C004']);
    expect(await codes({ tags: ['audit'] })).toEqual(['C001', 'C002', 'C003']);
    expect(await codes({ tags: ['gst'] })).toEqual([]);
    expect(await codes({ status: 'inactive' })).toEqual(['C001', 'C002', 'C003']);
    const rows = await logOf(firm.org.id, 'client.bulk.%');
    expect(rows.map((r) => r.summary)).toEqual([
      'Assigned Sam Staff to 2 clients',
      'Moved 3 clients to the group Mehta family',
      'Tagged 3 clients “audit”',
      'Removed the tag “gst” from 2 clients',
      'Set 2 clients to inactive',
    ]);
    expect(rows[0]?.changes).toMatchObject({ count: { to: 2 } });
    // Another firm's ids are silently outside the set.
    const other = await firmWithClients('Bulk other');
    expect(
      await other.api.clients.bulk.mutate({
        ids: [bose.id],
        action: { kind: 'setStatus', status: 'inactive' },
      }),
    ).toEqual({ affected: 0 });
    const [stillActive] = await t.db.select().from(clients).where(eq(clients.id, bose.id));
    expect(stillActive?.status).toBe('active');
  });

  it('client team: add, update responsibility, remove, audited', async () => {
    const { firm, api, mehta } = await firmWithClients('Team');
    await api.clients.team.add.mutate({
      clientId: mehta.id,
      memberId: firm.staff.id,
      responsibility: 'Preparer',
    });
    await expect(
      api.clients.team.add.mutate({ clientId: mehta.id, memberId: firm.staff.id }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'Sam Staff is already on this client’s team',
    });
    expect(await api.clients.team.list.query({ clientId: mehta.id })).toEqual([
      expect.objectContaining({ memberId: firm.staff.id, name: 'Sam Staff', responsibility: 'Preparer' }),
    ]);
    await api.clients.team.updateResponsibility.mutate({
      clientId: mehta.id,
      memberId: firm.staff.id,
      responsibility: 'Reviewer',
    });
    expect((await api.clients.get.query({ clientId: mehta.id })).team[0]?.responsibility).toBe('Reviewer');
    await api.clients.team.remove.mutate({ clientId: mehta.id, memberId: firm.staff.id });
    expect(await api.clients.team.list.query({ clientId: mehta.id })).toEqual([]);
    expect((await logOf(firm.org.id, 'client.team.%')).map((r) => r.action)).toEqual([
      'client.team.add',
      'client.team.updateResponsibility',
      'client.team.remove',
    ]);
  });
});

describe('permission matrix', () => {
  const expected: Record<string, { view: boolean; create: boolean; edit: boolean; archive: boolean }> = {
    Owner: { view: true, create: true, edit: true, archive: true },
    Admin: { view: true, create: true, edit: true, archive: true },
    Manager: { view: true, create: true, edit: true, archive: true },
    Staff: { view: true, create: false, edit: false, archive: false },
  };
  for (const [roleName, can] of Object.entries(expected)) {
    it(roleName, async () => {
      const { firm, acme } = await firmWithClients(`Matrix ${roleName}`);
      const roleMembers = await membersForSeededRoles(t, firm);
      const member = roleMembers.find((m) => m.role === roleName) as TRoleMember;
      const someoneElse = roleMembers.find((m) => m.role !== roleName) as TRoleMember;
      await t.db
        .insert(clientTeam)
        .values({ orgId: firm.org.id, clientId: acme.id, memberId: member.id })
        .onConflictDoNothing();
      const api = t.client(member.token);
      const outcome = async (p: Promise<unknown>) =>
        p.then(
          () => true,
          (e) => {
            expect(e.data.code).toBe('FORBIDDEN');
            return false;
          },
        );
      expect(await outcome(api.clients.list.query({}))).toBe(can.view);
      expect(await outcome(api.clients.get.query({ clientId: acme.id }))).toBe(can.view);
      expect(await outcome(api.clients.create.mutate({ code: `N-${roleName}`, name: 'New One' }))).toBe(
        can.create,
      );
      expect(
        await outcome(
          api.clients.update.mutate({ clientId: acme.id, data: { code: 'C003', name: 'Acme Renamed' } }),
        ),
      ).toBe(can.edit);
      expect(
        await outcome(api.clients.bulk.mutate({ ids: [acme.id], action: { kind: 'addTag', tag: 'x' } })),
      ).toBe(can.edit);
      expect(
        await outcome(api.clients.team.add.mutate({ clientId: acme.id, memberId: someoneElse.id })),
      ).toBe(can.edit);
      expect(await outcome(api.clients.archive.mutate({ clientId: acme.id }))).toBe(can.archive);
    });
  }
});

describe('cross-org', () => {
  it('answers NOT_FOUND for another firm’s client, and changes nothing there', async () => {
    const mine = await firmWithClients('Cross mine');
    const theirs = await firmWithClients('Cross theirs');
    const id = theirs.mehta.id;
    const notFound = { data: { code: 'NOT_FOUND' } };
    await expect(mine.api.clients.get.query({ clientId: id })).rejects.toMatchObject(notFound);
    await expect(
      mine.api.clients.update.mutate({ clientId: id, data: { code: 'X', name: 'Hijack' } }),
    ).rejects.toMatchObject(notFound);
    await expect(mine.api.clients.archive.mutate({ clientId: id })).rejects.toMatchObject(notFound);
    await expect(mine.api.clients.restore.mutate({ clientId: id })).rejects.toMatchObject(notFound);
    await expect(mine.api.clients.team.list.query({ clientId: id })).rejects.toMatchObject(notFound);
    await expect(
      mine.api.clients.team.add.mutate({ clientId: id, memberId: mine.firm.staff.id }),
    ).rejects.toMatchObject(notFound);
    await expect(
      mine.api.clients.team.add.mutate({ clientId: mine.mehta.id, memberId: theirs.firm.staff.id }),
    ).rejects.toMatchObject(notFound);
    await expect(
      mine.api.clients.create.mutate({ code: 'G1', name: 'Grouped', groupId: theirs.group.id }),
    ).rejects.toMatchObject(notFound);
    await expect(
      mine.api.clients.bulk.mutate({
        ids: [mine.mehta.id],
        action: { kind: 'setGroup', groupId: theirs.group.id },
      }),
    ).rejects.toMatchObject(notFound);
    expect((await mine.api.clients.list.query({ search: 'Mehta' })).total).toBe(1);
    const [untouched] = await t.db.select().from(clients).where(eq(clients.id, id));
    expect(untouched?.name).toBe('Rakesh Mehta');
  });
});
