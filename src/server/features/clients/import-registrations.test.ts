import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_EXPORT_PATH, parseCsv } from '../../../domain/client-import';
import { clientRegistrations, clients } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

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
  const api = t.client(token);
  for (let i = 0; i < 20; i++) {
    const s = await api.clients.import.step.mutate({ importId: body.importId as string });
    if (s.status === 'done') return s;
  }
  throw new Error('import never finished');
}

async function registrationsOf(orgId: string) {
  return t.db
    .select({
      name: clients.name,
      code: clients.code,
      taxIds: clients.taxIds,
      pan: clientRegistrations.pan,
      gstin: clientRegistrations.gstin,
      gstScheme: clientRegistrations.gstScheme,
    })
    .from(clients)
    .leftJoin(
      clientRegistrations,
      and(eq(clientRegistrations.orgId, clients.orgId), eq(clientRegistrations.clientId, clients.id)),
    )
    .where(eq(clients.orgId, orgId))
    .orderBy(asc(clients.name));
}

async function exportCsv(token: string, search: string) {
  const res = await fetch(`${t.url}${CLIENT_EXPORT_PATH}?search=${encodeURIComponent(search)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const [header, ...rows] = parseCsv((await res.text()).replace(/^\uFEFF/, ''));
  return rows.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i] ?? ''])));
}

// The browser test's file: no Code column (codes generated), tax identifiers in one column, a
// client with another code shape already in the firm. The browser once lost a PAN here: the import
// had written it, but the export read a registration without a GSTIN as no registration at all.
describe('import without a Code column', () => {
  it('writes each imported client’s registration, its PAN or GSTIN there only, and shows and exports it', async () => {
    const firm = await t.seedFirm('Kulkarni Associates');
    const api = t.client(firm.owner.token);
    await api.clients.create.mutate({
      code: 'K-001',
      name: 'Existing Client',
      email: 'existing@client.test',
    });
    const summary = await importCsv(
      firm.owner.token,
      [
        'Client Name,E-mail,Mobile,Tax IDs,Tags',
        'Nair Logistics,nair@logistics.test,+91 98200 11111,PAN:AAAPN1234C,gst',
        'Broken Row,not-an-email,,,',
        'Pillai Foods,pillai@foods.test,,GSTIN:29AAAPP1234C1Z6,',
        'Rao Traders,rao@traders.test,,PAN:AAAPR1234A; TAN:MUMR12345B,',
        // A GSTIN failing its check character stays a plain tax identifier, as before registrations.
        'Shetty Stores,shetty@stores.test,,GSTIN:29AAAPS1234C1Z5,',
        '',
      ].join('\r\n'),
    );
    expect(summary.counts).toMatchObject({ imported: 4, error: 1 });
    const rows = await registrationsOf(firm.org.id);
    expect(rows).toEqual([
      { name: 'Existing Client', code: 'K-001', taxIds: [], pan: null, gstin: null, gstScheme: null },
      { name: 'Nair Logistics', code: 'C00001', taxIds: [], pan: 'AAAPN1234C', gstin: null, gstScheme: null },
      {
        name: 'Pillai Foods',
        code: 'C00002',
        taxIds: [],
        pan: null,
        gstin: '29AAAPP1234C1Z6',
        gstScheme: 'regular',
      },
      { name: 'Rao Traders', code: 'C00003', taxIds: [], pan: 'AAAPR1234A', gstin: null, gstScheme: null },
      {
        name: 'Shetty Stores',
        code: 'C00004',
        taxIds: [{ kind: 'GSTIN', value: '29AAAPS1234C1Z5' }],
        pan: null,
        gstin: null,
        gstScheme: null,
      },
    ]);
    const [, nair, pillai, rao, shetty] = rows;
    const tans = await t.db
      .select({ tan: clientRegistrations.tan })
      .from(clientRegistrations)
      .where(eq(clientRegistrations.orgId, firm.org.id));
    expect(tans.map((r) => r.tan).filter(Boolean)).toEqual(['MUMR12345B']);

    // The client page's list: each identifier once.
    const taxIdsOf = async (code: string | undefined) => {
      const [row] = await t.db
        .select({ id: clients.id })
        .from(clients)
        .where(and(eq(clients.orgId, firm.org.id), eq(clients.code, code ?? '')));
      return (await api.clients.get.query({ clientId: row?.id ?? '' })).taxIds;
    };
    expect(await taxIdsOf(nair?.code)).toEqual([{ kind: 'PAN', value: 'AAAPN1234C' }]);
    expect(await taxIdsOf(pillai?.code)).toEqual([{ kind: 'GSTIN', value: '29AAAPP1234C1Z6' }]);
    expect(await taxIdsOf(rao?.code)).toEqual([
      { kind: 'PAN', value: 'AAAPR1234A' },
      { kind: 'TAN', value: 'MUMR12345B' },
    ]);
    expect(await taxIdsOf(shetty?.code)).toEqual([{ kind: 'GSTIN', value: '29AAAPS1234C1Z5' }]);

    // The export, as the browser downloads it: a PAN without a GSTIN is in the file.
    const exported = await exportCsv(firm.owner.token, 'Nair');
    expect(exported.map((r) => [r.Code, r['Tax IDs']])).toEqual([['C00001', 'PAN:AAAPN1234C']]);
    const all = await exportCsv(firm.owner.token, '');
    expect(Object.fromEntries(all.map((r) => [r.Code, [r['Tax IDs'], r['GST scheme']]]))).toEqual({
      'K-001': ['', ''],
      C00001: ['PAN:AAAPN1234C', ''],
      C00002: ['GSTIN:29AAAPP1234C1Z6', 'Regular'],
      C00003: ['PAN:AAAPR1234A; TAN:MUMR12345B', ''],
      C00004: ['GSTIN:29AAAPS1234C1Z5', ''],
    });
  });
});
