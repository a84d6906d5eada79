import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientTeam, roles, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

async function importCsv(token: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text]), 'clients.csv');
  const res = await fetch(`${t.url}/api/clients/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { importId?: string; message?: string };
  expect(res.status, body.message).toBe(200);
  return body.importId as string;
}

describe('client codes: one numbering for import and the New client form', () => {
  it('continues C000001..C000300 with C000301, in the form’s proposal and in an import', async () => {
    const firm = await t.seedFirm('Numbered');
    const api = t.client(firm.owner.token);
    // The demo's shape: six digits, and a hand-made code of another shape beside them.
    await t.db.insert(clients).values([
      ...Array.from({ length: 300 }, (_, i) => ({
        orgId: firm.org.id,
        code: `C${String(i + 1).padStart(6, '0')}`,
        name: `Client ${i + 1}`,
      })),
      { orgId: firm.org.id, code: 'ACME-999', name: 'Acme' },
    ]);
    // Another firm's higher codes do not count.
    const other = await t.seedFirm('Other');
    await t.db.insert(clients).values({ orgId: other.org.id, code: 'C9000000', name: 'Elsewhere' });

    const proposal = await api.clients.nextCode.query();
    expect(proposal).toEqual({ code: 'C000301' });

    const importId = await importCsv(
      firm.owner.token,
      csv('Name,Email', 'Asha Rao,asha@codes.test', 'Ravi Iyer,'),
    );
    const { rows } = await api.clients.import.rows.query({ importId });
    expect(rows.map((r) => [r.code, r.generatedCode])).toEqual([
      [proposal.code, true],
      ['C000302', true],
    ]);
    for (let i = 0; i < 10; i++) {
      if ((await api.clients.import.step.mutate({ importId })).status === 'done') break;
    }
    const created = await t.db
      .select({ code: clients.code })
      .from(clients)
      .where(and(eq(clients.orgId, firm.org.id), eq(clients.name, 'Asha Rao')));
    expect(created).toEqual([{ code: 'C000301' }]);
    expect(await api.clients.nextCode.query()).toEqual({ code: 'C000303' });

    // The proposal is only a proposal: the server still refuses a code in use.
    await expect(api.clients.create.mutate({ code: 'c000301', name: 'Twice' })).rejects.toThrow(
      /already used by Asha Rao/,
    );
  });

  it('creates a client with its team in one go, each addition in the system log', async () => {
    const firm = await t.seedFirm('Teams');
    const api = t.client(firm.owner.token);
    expect(await api.clients.nextCode.query()).toEqual({ code: 'C00001' });
    const created = await api.clients.create.mutate({
      code: 'C00001',
      name: 'Team Client',
      teamMemberIds: [firm.staff.id, firm.owner.id, firm.staff.id],
    });
    const team = await t.db
      .select({ memberId: clientTeam.memberId })
      .from(clientTeam)
      .where(eq(clientTeam.clientId, created.id));
    expect(team.map((r) => r.memberId).sort()).toEqual([firm.owner.id, firm.staff.id].sort());
    const log = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, created.id)));
    expect(
      log
        .filter((l) => l.action === 'client.team.add')
        .map((l) => l.summary)
        .sort(),
    ).toEqual(['Added Olivia Owner to Team Client’s team', 'Added Sam Staff to Team Client’s team']);

    // A member who is not there (or another firm's) stops the whole creation.
    const other = await t.seedFirm('Elsewhere');
    await expect(
      api.clients.create.mutate({ code: 'C00002', name: 'Half Made', teamMemberIds: [other.owner.id] }),
    ).rejects.toThrow(/Member not found/);
    expect(
      await t.db
        .select()
        .from(clients)
        .where(and(eq(clients.orgId, firm.org.id), eq(clients.code, 'C00002'))),
    ).toEqual([]);

    // Choosing the team is an edit: a member who may create clients but not edit them cannot.
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'clients.create'] })
      .where(eq(roles.id, firm.roles.staff.id));
    const staff = t.client(firm.staff.token);
    await expect(
      staff.clients.create.mutate({ code: 'C00003', name: 'Not Mine', teamMemberIds: [firm.owner.id] }),
    ).rejects.toThrow(/do not have permission/);
    await expect(staff.clients.create.mutate({ code: 'C00003', name: 'Mine' })).resolves.toMatchObject({
      code: 'C00003',
    });
  });
});
