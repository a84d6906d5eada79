import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRegistrations, clients } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

// PAN, TAN and GSTIN live in the client's registrations only (issue 39): the client's tax
// identifiers carry the others, and every reader adds the registrations' back.

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const GSTIN = '27AAPFU0939F1ZV';

describe('PAN, TAN and GSTIN in one home', () => {
  it('saves them to the registrations, shows them with the other identifiers, finds the client by them', async () => {
    const f = await t.seedFirm('One home');
    const api = t.client(f.owner.token);
    const created = await api.clients.create.mutate({
      code: 'H1',
      name: 'Home Traders',
      type: 'partnership',
      taxIds: [
        { kind: 'PAN', value: 'aapfu0939f' },
        { kind: 'GSTIN', value: GSTIN },
        { kind: 'EIN', value: '12-3456789' },
        // Not a PAN by its format: stays a plain identifier, as typed.
        { kind: 'TAN', value: 'NOT-A-TAN' },
      ],
    });
    const [row] = await t.db.select().from(clients).where(eq(clients.id, created.id));
    expect(row?.taxIds).toEqual([
      { kind: 'EIN', value: '12-3456789' },
      { kind: 'TAN', value: 'NOT-A-TAN' },
    ]);
    expect(await api.statutory.registrations.query({ clientId: created.id })).toMatchObject({
      pan: 'AAPFU0939F',
      gstin: GSTIN,
      gstScheme: 'regular',
    });
    const detail = await api.clients.get.query({ clientId: created.id });
    expect(detail.taxIds).toEqual([
      { kind: 'EIN', value: '12-3456789' },
      { kind: 'TAN', value: 'NOT-A-TAN' },
      { kind: 'PAN', value: 'AAPFU0939F' },
      { kind: 'GSTIN', value: GSTIN },
    ]);
    const found = await api.clients.list.query({ search: 'AAPFU0939F' });
    expect(found.rows.map((r) => r.id)).toEqual([created.id]);

    // The registrations' form changes the PAN: the client shows the new one, nowhere else a copy.
    await api.statutory.setRegistrations.mutate({
      clientId: created.id,
      data: { pan: 'AAACI1681G', gstin: null, gstScheme: null },
    });
    expect((await api.clients.get.query({ clientId: created.id })).taxIds).toContainEqual({
      kind: 'PAN',
      value: 'AAACI1681G',
    });

    // The client's form saves its whole list: a PAN left out is cleared from the registrations.
    await api.clients.update.mutate({
      clientId: created.id,
      data: {
        code: 'H1',
        name: 'Home Traders',
        type: 'partnership',
        taxIds: [{ kind: 'EIN', value: '12-3456789' }],
      },
    });
    const [reg] = await t.db
      .select()
      .from(clientRegistrations)
      .where(and(eq(clientRegistrations.orgId, f.org.id), eq(clientRegistrations.clientId, created.id)));
    expect(reg).toMatchObject({ pan: null, gstin: null, tan: null });
  });
});
