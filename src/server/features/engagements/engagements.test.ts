import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientServiceAssignees } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, page, putOnTeam, seedClient } from '../../test/fixtures';
import { membersForSeededRoles } from '../../test/role-members';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const service = {
  name: 'Bookkeeping',
  code: 'BK',
  frequency: 'monthly' as const,
  dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
  defaultFee: '2000',
};

async function firmWithService(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const svc = await api.services.create.mutate(service);
  const client = await seedClient(t, firm.org.id, { name: `${name} client` });
  return { firm, api, svc, client };
}

describe('engagements', () => {
  it('adds, lists, updates, ends and deletes a client’s engagement, each change audited', async () => {
    const { firm, api, svc, client } = await firmWithService('Engage & Co');
    const { id } = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: '2026-04-01',
      fee: '2500',
      assigneeIds: [firm.owner.id, firm.staff.id],
      notes: 'Monthly books',
    });
    const list = await api.engagements.listForClient.query({ clientId: client.id });
    expect(list.total).toBe(1);
    expect(list.rows[0]).toMatchObject({
      id,
      service: { id: svc.id, name: 'Bookkeeping', code: 'BK', frequency: 'monthly', archived: false },
      startDate: '2026-04-01',
      endDate: null,
      fee: '2500.00',
      notes: 'Monthly books',
    });
    expect(list.rows[0]?.assignees.map((a) => a.name).sort()).toEqual(['Olivia Owner', 'Sam Staff']);

    await api.engagements.update.mutate({
      engagementId: id,
      startDate: '2026-04-01',
      fee: '2600',
      assigneeIds: [firm.staff.id],
      notes: 'Monthly books',
    });
    const rows = await t.db
      .select()
      .from(clientServiceAssignees)
      .where(eq(clientServiceAssignees.clientServiceId, id));
    expect(rows.map((r) => r.memberId)).toEqual([firm.staff.id]);
    await api.engagements.end.mutate({ engagementId: id, endDate: '2027-03-31' });
    expect((await api.engagements.listForClient.query({ clientId: client.id })).rows[0]?.endDate).toBe(
      '2027-03-31',
    );
    await api.engagements.delete.mutate({ engagementId: id });
    expect((await api.engagements.listForClient.query({ clientId: client.id })).total).toBe(0);

    const log = await logRows(t, firm.org.id, client.id);
    expect(log.map((r) => r.action)).toEqual([
      'engagement.create',
      'engagement.update',
      'engagement.end',
      'engagement.delete',
    ]);
    expect(log[1]?.changes).toEqual({
      fee: { from: '2500.00', to: '2600.00' },
      assigneeIds: { from: [firm.owner.id, firm.staff.id].sort(), to: [firm.staff.id] },
    });
  });

  it('keeps the end date on or after the start date, and answers bad dates with a message', async () => {
    const { api, svc, client } = await firmWithService('Dates & Co');
    const base = { clientId: client.id, serviceId: svc.id, assigneeIds: [] };
    await expect(
      api.engagements.create.mutate({ ...base, startDate: '2026-04-01', endDate: '2026-03-31' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'The end date cannot be before the start date',
    });
    await expect(api.engagements.create.mutate({ ...base, startDate: '2026-02-30' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'Enter a date as YYYY-MM-DD',
    });
    await expect(
      api.engagements.create.mutate({ ...base, startDate: '2026-04-01', fee: '-1' }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    const { id } = await api.engagements.create.mutate({
      ...base,
      startDate: '2026-04-01',
      endDate: '2026-04-01',
    });
    await expect(
      api.engagements.end.mutate({ engagementId: id, endDate: '2026-01-01' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('cannot be before the start date'),
    });
    await expect(
      api.engagements.update.mutate({ engagementId: id, startDate: '2026-05-01', endDate: '2026-04-30' }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });

  it('refuses an archived service and assignees who are not active members of the firm', async () => {
    const { firm, api, svc, client } = await firmWithService('Rules & Co');
    const other = await t.seedFirm('Rules Other');
    await expect(
      api.engagements.create.mutate({
        clientId: client.id,
        serviceId: svc.id,
        startDate: '2026-04-01',
        assigneeIds: [other.owner.id],
      }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('assigneeIds'),
    });
    await api.services.archive.mutate({ serviceId: svc.id });
    await expect(
      api.engagements.create.mutate({ clientId: client.id, serviceId: svc.id, startDate: '2026-04-01' }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringContaining('archived') });
    expect(firm.org.id).toBeTruthy();
  });

  it('hides another firm’s clients, services and engagements: NOT_FOUND', async () => {
    const mine = await firmWithService('Mine & Co');
    const theirs = await firmWithService('Theirs & Co');
    const theirEngagement = await theirs.api.engagements.create.mutate({
      clientId: theirs.client.id,
      serviceId: theirs.svc.id,
      startDate: '2026-04-01',
    });
    const notFound = { data: { code: 'NOT_FOUND' } };
    const api = mine.api;
    await expect(api.engagements.listForClient.query({ clientId: theirs.client.id })).rejects.toMatchObject(
      notFound,
    );
    await expect(
      api.engagements.create.mutate({
        clientId: theirs.client.id,
        serviceId: mine.svc.id,
        startDate: '2026-04-01',
      }),
    ).rejects.toMatchObject(notFound);
    await expect(
      api.engagements.create.mutate({
        clientId: mine.client.id,
        serviceId: theirs.svc.id,
        startDate: '2026-04-01',
      }),
    ).rejects.toMatchObject(notFound);
    await expect(
      api.engagements.update.mutate({ engagementId: theirEngagement.id, startDate: '2026-04-01' }),
    ).rejects.toMatchObject(notFound);
    await expect(
      api.engagements.end.mutate({ engagementId: theirEngagement.id, endDate: '2026-05-01' }),
    ).rejects.toMatchObject(notFound);
    await expect(api.engagements.delete.mutate({ engagementId: theirEngagement.id })).rejects.toMatchObject(
      notFound,
    );
    expect((await theirs.api.engagements.listForClient.query({ clientId: theirs.client.id })).total).toBe(1);
  });

  it('follows the seeded roles; Staff sees only assigned clients and cannot change engagements', async () => {
    const { firm, api: owner, svc, client } = await firmWithService('Matrix & Co');
    const people = await membersForSeededRoles(t, firm);
    const assigned = await seedClient(t, firm.org.id, { name: 'Assigned client' });
    const staff = people.find((p) => p.role === 'Staff');
    if (!staff) throw new Error('no staff');
    await putOnTeam(t, firm.org.id, assigned.id, staff.id);
    await owner.engagements.create.mutate({
      clientId: assigned.id,
      serviceId: svc.id,
      startDate: '2026-04-01',
    });
    const canEdit: Record<string, boolean> = { Owner: true, Admin: true, Manager: true, Staff: false };
    for (const person of people) {
      const api = t.client(person.token);
      // Everyone seeded has clients.view.
      await expect(api.engagements.listForClient.query({ clientId: assigned.id })).resolves.toMatchObject({
        total: expect.any(Number),
      });
      const create = api.engagements.create.mutate({
        clientId: client.id,
        serviceId: svc.id,
        startDate: '2026-04-01',
      });
      if (canEdit[person.role]) {
        const { id } = await create;
        await api.engagements.end.mutate({ engagementId: id, endDate: '2026-12-31' });
        await api.engagements.delete.mutate({ engagementId: id });
      } else await expect(create).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    }
    const staffApi = t.client(staff.token);
    await expect(staffApi.engagements.listForClient.query({ clientId: client.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    // services.clients for a Manager lists every client; an assigned-only role with services.view sees its own.
    const manager = people.find((p) => p.role === 'Manager');
    if (!manager) throw new Error('no manager');
    expect((await t.client(manager.token).services.clients.query({ serviceId: svc.id, ...page })).total).toBe(
      1,
    );
  });
});
