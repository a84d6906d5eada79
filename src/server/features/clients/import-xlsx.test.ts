import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function upload(token: string, bytes: Uint8Array<ArrayBuffer>, fileName: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  const res = await fetch(`${t.url}/api/clients/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { importId?: string; message?: string } };
}

/** A workbook as Excel users make them: a phone typed as a number, a rich-text name, a mailto link. */
async function workbook() {
  const wb = new ExcelJS.Workbook();
  // A first sheet is read, whatever the others hold.
  const sheet = wb.addWorksheet('Clients');
  wb.addWorksheet('Notes').addRow(['Name', 'Email']).commit();
  sheet.addRow(['Client Name', 'E-mail', 'Mobile', 'Code', 'Client since', 'Postal code']);
  sheet.addRow([
    { richText: [{ text: 'Asha ' }, { text: 'Rao', font: { bold: true } }] },
    { text: 'asha@rao.test', hyperlink: 'mailto:asha@rao.test' },
    9876543210,
    'X-1',
    new Date(Date.UTC(2024, 2, 5)),
    1234,
  ]);
  // A postal code typed as a number but shown zero-padded, as Excel users keep them.
  sheet.getCell('F2').numFmt = '00000';
  sheet.addRow(['Bad Email Ltd', 'not-an-email', null, 'X-2']);
  sheet.addRow([]);
  sheet.addRow(['Kapoor Sons', 'kapoor@sons.test', { formula: '1+1', result: 2 }, 'X-3']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('XLSX import', () => {
  it('reads the first sheet as the CSV reader would and reports the bad row', async () => {
    const firm = await t.seedFirm('Excel importers');
    const bytes = await workbook();
    // Told by its content, not its name.
    const res = await upload(firm.owner.token, bytes, 'clients-from-excel.csv');
    expect(res.status, res.body.message).toBe(200);
    const importId = res.body.importId as string;
    const api = t.client(firm.owner.token);
    const summary = await api.clients.import.get.query({ importId });
    expect(summary).toMatchObject({
      totalRows: 3,
      counts: { new: 2, error: 1 },
      ignoredColumns: ['Client since'],
    });
    const { rows } = await api.clients.import.rows.query({ importId });
    expect(rows.map((r) => [r.rowNo, r.status])).toEqual([
      [2, 'new'],
      [3, 'error'],
      [5, 'new'],
    ]);
    expect(rows[0]?.values).toMatchObject({
      name: 'Asha Rao',
      email: 'asha@rao.test',
      phone: '9876543210',
      code: 'X-1',
      postalCode: '01234',
    });
    expect(rows[1]?.messages).toEqual([{ field: 'email', message: 'Enter a valid email address' }]);

    for (let i = 0; i < 10; i++) {
      const step = await api.clients.import.step.mutate({ importId });
      if (step.status === 'done') break;
    }
    const added = await t.db
      .select({ code: clients.code, phone: clients.phone })
      .from(clients)
      .where(eq(clients.orgId, firm.org.id))
      .orderBy(clients.code);
    expect(added).toEqual([
      { code: 'X-1', phone: '9876543210' },
      { code: 'X-3', phone: '2' },
    ]);
  });

  it('refuses a damaged workbook and stages nothing', async () => {
    const firm = await t.seedFirm('Broken workbooks');
    const bytes = (await workbook()).slice(0, 200);
    const res = await upload(firm.owner.token, bytes, 'clients.xlsx');
    expect(res).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^This file could not be read as an Excel workbook/) },
    });
    const text = await upload(firm.owner.token, new TextEncoder().encode('Name\r\nAcme\r\n'), 'a.xlsx');
    expect(text).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/not an Excel workbook/) },
    });
    const log = await t.db.select().from(systemLog).where(eq(systemLog.orgId, firm.org.id));
    expect(log.filter((l) => l.action.startsWith('client.import'))).toHaveLength(0);
  });
});

describe('XLSX import limits', () => {
  it('reads the workbook as a stream and stops at the row limit, staging nothing', async () => {
    const firm = await t.seedFirm('Big workbooks');
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Clients');
    sheet.addRow(['Code', 'Name']);
    for (let i = 1; i <= 10_001; i++) sheet.addRow([`C${i}`, `Client ${i}`]);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const { status, body } = await upload(firm.owner.token, bytes, 'big.xlsx');
    expect(status).toBe(400);
    expect(body.message).toBe('The file has more than 10000 rows: import at most 10000 at a time');
    expect(await t.db.select().from(clients).where(eq(clients.orgId, firm.org.id))).toEqual([]);
  });
});

describe('XLSX export', () => {
  it('streams the list’s filter as a workbook in the import’s columns, logged', async () => {
    const firm = await t.seedFirm('Excel exporters');
    const api = t.client(firm.owner.token);
    await api.clients.create.mutate({ code: 'C001', name: 'Rakesh Mehta', phone: '09876543210' });
    await api.clients.create.mutate({
      code: 'C002',
      name: 'Sharma Traders',
      type: 'partnership',
      tags: ['gst'],
    });
    await api.clients.create.mutate({ code: 'C003', name: 'Acme Pvt Ltd', type: 'company' });

    const res = await fetch(`${t.url}/api/clients/export.xlsx?type=individual&sort=code`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="clients-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    expect(res.headers.get('x-total-count')).toBe('1');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.worksheets[0];
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]?.slice(0, 5)).toEqual(['Code', 'Name', 'Type', 'Email', 'Phone']);
    expect(rows).toHaveLength(2);
    // A string cell, so the leading zero survives.
    expect(rows[1]?.slice(0, 5)).toEqual(['C001', 'Rakesh Mehta', 'Individual', undefined, '09876543210']);

    const partnerships = await fetch(`${t.url}/api/clients/export.xlsx?tags=gst`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(await partnerships.arrayBuffer());
    expect(wb2.worksheets[0]?.getRow(2).getCell(1).value).toBe('C002');
    expect(wb2.worksheets[0]?.rowCount).toBe(2);

    expect((await fetch(`${t.url}/api/clients/export.xlsx`)).status).toBe(401);
    const bad = await fetch(`${t.url}/api/clients/export.xlsx?type=spaceship`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(bad.status).toBe(400);

    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'client.export')))
      .orderBy(systemLog.at);
    expect(log.map((l) => l.summary)).toEqual([
      'Exported 1 client to Excel (type individual)',
      'Exported 1 client to Excel (tags gst)',
    ]);
  });
});
