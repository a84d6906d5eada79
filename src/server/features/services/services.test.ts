import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, page, seedClient } from '../../test/fixtures';
import { membersForSeededRoles } from '../../test/role-members';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const gst = {
  name: 'GST return',
  code: 'gst-m',
  category: 'Indirect tax',
  description: 'Monthly GSTR-3B',
  frequency: 'monthly' as const,
  dueDateRule: { dayOfMonth: 20, monthsAfterPeriod: 1 },
  defaultFee: '1500',
};

describe('services', () => {
  it('creates, reads, lists, updates, archives and restores a service, each change audited', async () => {
    const firm = await t.seedFirm('Catalogue & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.services.create.mutate(gst);
    const got = await api.services.get.query({ serviceId: id });
    expect(got).toMatchObject({
      name: 'GST return',
      code: 'GST-M',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 20, monthsAfterPeriod: 1 },
      defaultFee: '1500.00',
      clientCount: 0,
      archivedAt: null,
    });
    await api.services.create.mutate({
      ...gst,
      name: 'Audit',
      code: 'AUD',
      frequency: 'yearly',
      category: null,
    });

    const list = await api.services.list.query(page);
    expect(list.total).toBe(2);
    expect(list.rows.map((r) => r.name)).toEqual(['Audit', 'GST return']);
    expect((await api.services.list.query({ ...page, search: 'indirect' })).rows.map((r) => r.code)).toEqual([
      'GST-M',
    ]);

    await api.services.update.mutate({ serviceId: id, ...gst, defaultFee: '1750.5', frequency: 'quarterly' });
    expect(await api.services.get.query({ serviceId: id })).toMatchObject({
      defaultFee: '1750.50',
      frequency: 'quarterly',
    });

    await api.services.archive.mutate({ serviceId: id });
    expect((await api.services.list.query(page)).rows.map((r) => r.code)).toEqual(['AUD']);
    expect((await api.services.list.query({ ...page, archived: true })).rows.map((r) => r.code)).toEqual([
      'GST-M',
    ]);
    await api.services.restore.mutate({ serviceId: id });
    expect((await api.services.list.query(page)).total).toBe(2);

    const log = await logRows(t, firm.org.id, id);
    expect(log.map((r) => r.action)).toEqual([
      'service.create',
      'service.update',
      'service.archive',
      'service.restore',
    ]);
    expect(log[1]?.changes).toEqual({
      frequency: { from: 'monthly', to: 'quarterly' },
      defaultFee: { from: '1500.00', to: '1750.50' },
    });
  });

  it('refuses a code already used in the firm with CONFLICT, but another firm may use it', async () => {
    const firm = await t.seedFirm('Codes & Co');
    const other = await t.seedFirm('Other Codes');
    const api = t.client(firm.owner.token);
    const { id } = await api.services.create.mutate(gst);
    await expect(
      api.services.create.mutate({ ...gst, name: 'Another', code: 'GST-m' }),
    ).rejects.toMatchObject({
      // On the code field too, so the form says it beside the code (ui/record-dialog.tsx).
      data: { code: 'CONFLICT', fieldErrors: { code: ['Another service already uses the code GST-M'] } },
      message: 'Another service already uses the code GST-M',
    });
    const second = await api.services.create.mutate({ ...gst, code: 'TDS' });
    await expect(api.services.update.mutate({ serviceId: second.id, ...gst })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    // Saving a service with its own code is not a conflict.
    await api.services.update.mutate({ serviceId: id, ...gst, name: 'GST monthly' });
    await t.client(other.owner.token).services.create.mutate(gst);
  });

  it('answers bad input with a message a person can act on, never a 500', async () => {
    const firm = await t.seedFirm('Validation & Co');
    const api = t.client(firm.owner.token);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...gst, name: '  ' }, 'Enter the service name'],
      [{ ...gst, code: 'has space' }, 'Code may use letters'],
      [{ ...gst, frequency: 'weekly' }, 'Choose how often'],
      [{ ...gst, dueDateRule: { dayOfMonth: 32, monthsAfterPeriod: 1 } }, 'Day must be between 1 and 31'],
      [{ ...gst, dueDateRule: { dayOfMonth: 1, monthsAfterPeriod: 13 } }, 'between 0 and 12'],
      [{ ...gst, defaultFee: '-5' }, 'not negative'],
      [{ ...gst, defaultFee: '10.555' }, 'at most 2 decimals'],
    ];
    for (const [input, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: invalid input on purpose
      await expect(api.services.create.mutate(input as any)).rejects.toMatchObject({
        data: { code: 'BAD_REQUEST' },
        message: expect.stringContaining(message),
      });
    }
    await expect(api.services.get.query({ serviceId: 'nope' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('names the field of each refusal by its path, as the form names its inputs', async () => {
    const firm = await t.seedFirm('Fields & Co');
    const api = t.client(firm.owner.token);
    const refused = await api.services.create
      .mutate({ ...gst, name: ' ', dueDateRule: { dayOfMonth: 32, monthsAfterPeriod: 1 } })
      .catch((error: { data?: { fieldErrors?: Record<string, string[]> } }) => error);
    expect(refused).toMatchObject({
      data: {
        code: 'BAD_REQUEST',
        fieldErrors: {
          name: [expect.stringContaining('Enter the service name')],
          'dueDateRule.dayOfMonth': [expect.stringContaining('Day must be between 1 and 31')],
        },
      },
    });
  });

  it('lists the engagements of a service with client names, paginated, and counts its clients', async () => {
    const firm = await t.seedFirm('Clients & Co');
    const api = t.client(firm.owner.token);
    const { id } = await api.services.create.mutate(gst);
    const names = ['Zeta', 'Alpha', 'Mu'];
    for (const name of names) {
      const client = await seedClient(t, firm.org.id, { name });
      await api.engagements.create.mutate({
        clientId: client.id,
        serviceId: id,
        startDate: '2026-04-01',
        fee: '1000',
        assigneeIds: [firm.owner.id],
      });
    }
    const first = await api.services.clients.query({ serviceId: id, page: 1, pageSize: 2 });
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => r.client.name)).toEqual(['Alpha', 'Mu']);
    expect(first.rows[0]).toMatchObject({
      startDate: '2026-04-01',
      endDate: null,
      fee: '1000.00',
      assignees: [{ id: firm.owner.id, name: 'Olivia Owner' }],
    });
    const second = await api.services.clients.query({ serviceId: id, page: 2, pageSize: 2 });
    expect(second.rows.map((r) => r.client.name)).toEqual(['Zeta']);
    expect((await api.services.list.query(page)).rows[0]?.clientCount).toBe(3);
  });

  it('hides another firm’s services: NOT_FOUND for every id, and nothing in lists', async () => {
    const firm = await t.seedFirm('Mine & Co');
    const other = await t.seedFirm('Theirs & Co');
    const theirs = await t.client(other.owner.token).services.create.mutate(gst);
    const api = t.client(firm.owner.token);
    const notFound = { data: { code: 'NOT_FOUND' } };
    await expect(api.services.get.query({ serviceId: theirs.id })).rejects.toMatchObject(notFound);
    await expect(api.services.update.mutate({ serviceId: theirs.id, ...gst })).rejects.toMatchObject(
      notFound,
    );
    await expect(api.services.archive.mutate({ serviceId: theirs.id })).rejects.toMatchObject(notFound);
    await expect(api.services.restore.mutate({ serviceId: theirs.id })).rejects.toMatchObject(notFound);
    await expect(api.services.clients.query({ serviceId: theirs.id, ...page })).rejects.toMatchObject(
      notFound,
    );
    expect((await api.services.list.query(page)).total).toBe(0);
    expect((await t.client(other.owner.token).services.get.query({ serviceId: theirs.id })).name).toBe(
      'GST return',
    );
  });

  it('follows the seeded roles: Owner and Admin manage, Manager reads, Staff is refused', async () => {
    const firm = await t.seedFirm('Matrix & Co');
    const people = await membersForSeededRoles(t, firm);
    const expected: Record<string, { read: boolean; write: boolean }> = {
      Owner: { read: true, write: true },
      Admin: { read: true, write: true },
      Manager: { read: true, write: false },
      Staff: { read: false, write: false },
    };
    const { id } = await t.client(firm.owner.token).services.create.mutate(gst);
    for (const person of people) {
      const api = t.client(person.token);
      const want = expected[person.role];
      if (!want) throw new Error(person.role);
      const read = api.services.list.query(page);
      if (want.read) await expect(read).resolves.toMatchObject({ total: expect.any(Number) });
      else await expect(read).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
      const create = api.services.create.mutate({ ...gst, code: `C-${person.role}` });
      const update = api.services.update.mutate({ serviceId: id, ...gst, name: `By ${person.role}` });
      const archive = api.services.archive.mutate({ serviceId: id });
      for (const call of [create, update, archive]) {
        if (want.write) await expect(call).resolves.toBeTruthy();
        else await expect(call).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
      }
      if (want.write) await api.services.restore.mutate({ serviceId: id });
    }
  });
});
