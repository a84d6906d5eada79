import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IMPORT_BATCH, parseCsv } from '../../../domain/client-import';
import {
  clientGroups,
  clientImports,
  clientRegistrations,
  clients,
  clientTeam,
  roles,
  systemLog,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles, type TRoleMember } from '../../test/role-members';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TFirm = Awaited<ReturnType<TTestApp['seedFirm']>>;

async function upload(token: string, text: string | Uint8Array<ArrayBuffer>, fileName = 'clients.csv') {
  const form = new FormData();
  form.append('file', new Blob([text]), fileName);
  const res = await fetch(`${t.url}/api/clients/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { importId?: string; message?: string } };
}

async function uploadOk(token: string, text: string) {
  const res = await upload(token, text);
  expect(res.status, res.body.message).toBe(200);
  return res.body.importId as string;
}

/** Steps until done, as the web's progress bar does; answers each step's progress. */
async function runAll(token: string, importId: string) {
  const api = t.client(token);
  const progress: number[] = [];
  for (let i = 0; i < 100; i++) {
    const s = await api.clients.import.step.mutate({ importId });
    progress.push(s.processedRows);
    if (s.status === 'done') return { summary: s, progress };
  }
  throw new Error('import never finished');
}

const download = async (path: string, token: string) => {
  const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, text, records: res.ok ? parseCsv(text) : [] };
};

const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

async function firmWithBook(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const [group] = await t.db
    .insert(clientGroups)
    .values({ orgId: firm.org.id, name: 'Mehta family' })
    .returning();
  if (!group) throw new Error('group not created');
  const mehta = await api.clients.create.mutate({
    code: 'C001',
    name: 'Rakesh Mehta',
    email: 'rakesh@mehta.test',
    country: 'IN',
    taxIds: [{ kind: 'PAN', value: 'ABCDE1234F' }],
    groupId: group.id,
    tags: ['vip'],
  });
  return { firm, api, group, mehta };
}

const BAD_ROWS = csv(
  'Client Name,E-mail,Mobile,Code,Group,Tax IDs,Tags,Country,Favourite colour',
  'Asha Rao,asha@rao.test,+91 98200 00001,,mehta FAMILY,PAN:AAAPR1234A,gst; vip,India,blue',
  'Bad Email Ltd,not-an-email,,,,,,,',
  ',nobody@x.test,,,,,,,',
  'Same Pan Traders,,,,,pan:abcde1234f,,IN,',
  'Asha Again,ASHA@rao.test,,,,,,,',
  '"Kapoor, Sons & Co",kapoor@sons.test,022-555,X-7,,GSTIN:27AAAPK1234A1Z5,,,',
  'Lost Group,lost@group.test,,,No such group,,,,',
  ',,,,,,,,',
);

describe('import', () => {
  let firm: TFirm;
  let importId: string;
  let book: Awaited<ReturnType<typeof firmWithBook>>;
  beforeAll(async () => {
    book = await firmWithBook('Importers');
    firm = book.firm;
    importId = await uploadOk(firm.owner.token, BAD_ROWS);
  });

  it('previews every row with its status and per-field reasons, before anything goes in', async () => {
    const api = t.client(firm.owner.token);
    const summary = await api.clients.import.get.query({ importId });
    expect(summary).toMatchObject({
      fileName: 'clients.csv',
      status: 'preview',
      totalRows: 7,
      processedRows: 0,
      counts: { new: 2, duplicate: 2, error: 3, imported: 0 },
      ignoredColumns: ['Favourite colour'],
    });
    const { rows } = await api.clients.import.rows.query({ importId });
    const byRow = Object.fromEntries(rows.map((r) => [r.rowNo, r]));
    expect(rows.map((r) => [r.rowNo, r.status])).toEqual([
      [2, 'new'],
      [3, 'error'],
      [4, 'error'],
      [5, 'duplicate'],
      [6, 'duplicate'],
      [7, 'new'],
      [8, 'error'],
    ]);
    // Numbered after the firm's highest code of that shape (C001), as wide.
    expect(byRow[2]?.code).toBe('C002');
    expect(byRow[2]?.generatedCode).toBe(true);
    expect(byRow[3]?.messages).toEqual([{ field: 'email', message: 'Enter a valid email address' }]);
    expect(byRow[4]?.messages).toEqual([
      { field: 'name', message: 'Client name must be at least 2 characters' },
    ]);
    expect(byRow[5]?.messages).toEqual([
      { field: 'taxIds', message: 'Same PAN as the client Rakesh Mehta (C001)' },
    ]);
    expect(byRow[6]?.messages).toEqual([{ field: 'email', message: 'Same email as row 2' }]);
    expect(byRow[8]?.messages[0]).toMatchObject({ field: 'group' });
    expect(byRow[7]?.values).toMatchObject({ name: 'Kapoor, Sons & Co', code: 'X-7' });
    // Filtered pages for the preview's tabs.
    const errors = await api.clients.import.rows.query({ importId, status: 'error' });
    expect(errors.total).toBe(3);
    // Nothing has been imported yet.
    expect((await api.clients.list.query({})).total).toBe(1);
  });

  it('imports the good rows only, with their group and tags, logs it and reports the rest', async () => {
    const { summary } = await runAll(firm.owner.token, importId);
    expect(summary).toMatchObject({
      status: 'done',
      processedRows: 7,
      counts: { new: 0, imported: 2, duplicate: 2, error: 3 },
    });
    const rows = await t.db
      .select()
      .from(clients)
      .where(eq(clients.orgId, firm.org.id))
      .orderBy(clients.name);
    expect(rows.map((r) => r.name)).toEqual(['Asha Rao', 'Kapoor, Sons & Co', 'Rakesh Mehta']);
    const asha = rows.find((r) => r.name === 'Asha Rao');
    expect(asha).toMatchObject({
      email: 'asha@rao.test',
      phone: '+91 98200 00001',
      groupId: book.group.id,
      country: 'IN',
      tags: ['gst', 'vip'],
      // The PAN's one home is the registrations (issue 39).
      taxIds: [],
      status: 'active',
      type: 'individual',
    });
    const [ashaRegistration] = await t.db
      .select()
      .from(clientRegistrations)
      .where(eq(clientRegistrations.clientId, asha?.id ?? ''));
    expect(ashaRegistration?.pan).toBe('AAAPR1234A');
    expect(asha?.code).toBe('C002');
    expect(rows.find((r) => r.code === 'X-7')?.taxIds).toEqual([{ kind: 'GSTIN', value: '27AAAPK1234A1Z5' }]);

    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), like(systemLog.action, 'client.import%')))
      .orderBy(systemLog.at);
    expect(log.map((l) => l.action)).toEqual(['client.import.upload', 'client.import']);
    expect(log[1]?.summary).toBe(
      'Imported 2 clients from clients.csv (rows 2–8); import finished: 2 clients imported, 2 duplicates skipped, 3 rows with errors',
    );

    // Running it again does nothing more.
    const again = await t.client(firm.owner.token).clients.import.step.mutate({ importId });
    expect(again.counts.imported).toBe(2);
    expect((await t.client(firm.owner.token).clients.list.query({})).total).toBe(3);
  });

  it('offers the rows that did not go in as CSV, with reasons, in columns the import reads back', async () => {
    const res = await download(`/api/clients/import/${importId}/errors.csv`, firm.owner.token);
    expect(res.status).toBe(200);
    expect(res.text.startsWith('\uFEFFImport row,')).toBe(true);
    const [header, ...rows] = res.records;
    expect(header?.slice(0, 5)).toEqual(['Import row', 'Import result', 'Import problems', 'Code', 'Name']);
    expect(rows.map((r) => r[0])).toEqual(['3', '4', '5', '6', '8']);
    expect(rows[0]?.[2]).toBe('Email: Enter a valid email address');
    expect(rows[3]?.[1]).toBe('Duplicate');
  });

  it('imports in batches, each a step of the progress, and finds duplicates added since the preview', async () => {
    const { firm: other } = await firmWithBook('Batches');
    const n = CLIENT_IMPORT_BATCH * 2 + 10;
    const lines = ['Name,Email,PAN,Type,Status'];
    for (let i = 1; i <= n; i++) {
      lines.push(
        `Client ${i},client${i}@book.test,ABCPD${String(i).padStart(4, '0')}Z,Company,${i % 2 ? 'Active' : 'inactive'}`,
      );
    }
    const id = await uploadOk(other.owner.token, csv(...lines));
    const api = t.client(other.owner.token);
    expect((await api.clients.import.get.query({ importId: id })).counts.new).toBe(n);
    // Someone adds client 700 by hand between the preview and the import.
    await api.clients.create.mutate({ code: 'HAND', name: 'By Hand', email: 'client700@book.test' });
    // One step, then the tab closes: the import is offered again and continues where it stopped.
    expect(await api.clients.import.unfinished.query()).toBeNull();
    await api.clients.import.step.mutate({ importId: id });
    expect(await api.clients.import.unfinished.query()).toMatchObject({ id, fileName: 'clients.csv' });
    const { summary, progress } = await runAll(other.owner.token, id);
    expect(await api.clients.import.unfinished.query()).toBeNull();
    expect(progress).toEqual([CLIENT_IMPORT_BATCH * 2, n]);
    expect(summary.counts).toEqual({ new: 0, imported: n - 1, duplicate: 1, error: 0 });
    const dup = await api.clients.import.rows.query({ importId: id, status: 'duplicate' });
    expect(dup.rows[0]).toMatchObject({
      rowNo: 701,
      messages: [{ field: 'email', message: 'Same email as the client By Hand (HAND)' }],
    });
    expect((await api.clients.list.query({ type: 'company', status: 'inactive' })).total).toBe(n / 2 - 1);
    // Generated codes are unique and follow the firm's highest.
    const codes = (
      await t.db.select({ code: clients.code }).from(clients).where(eq(clients.orgId, other.org.id))
    ).map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toContain('C002');
    expect(codes).toContain('C1000');
    // One log entry per batch, the last with the totals.
    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, other.org.id), eq(systemLog.action, 'client.import')));
    expect(log).toHaveLength(3);
  });

  it('counts every row once across an interrupted and resumed import, even with two tabs stepping', async () => {
    const { firm: other } = await firmWithBook('Resumed');
    const n = 3000;
    const lines = ['Name,Email'];
    for (let i = 1; i <= n; i++) lines.push(`Resumed ${i},resumed${i}@book.test`);
    // A blank line in the middle: row numbers (the file's lines) and rows counted part ways.
    lines.splice(1500, 0, ',');
    const id = await uploadOk(other.owner.token, csv(...lines));
    const api = t.client(other.owner.token);
    expect(await api.clients.import.get.query({ importId: id })).toMatchObject({
      totalRows: n,
      processedRows: 0,
    });
    // One step, then the tab closes; later two tabs resume it at once.
    expect((await api.clients.import.step.mutate({ importId: id })).processedRows).toBe(CLIENT_IMPORT_BATCH);
    const both = await Promise.all([
      api.clients.import.step.mutate({ importId: id }),
      api.clients.import.step.mutate({ importId: id }),
    ]);
    // Each took its own batch: together they moved the import on by two, never past a row twice.
    for (const s of both)
      expect([CLIENT_IMPORT_BATCH * 2, CLIENT_IMPORT_BATCH * 3]).toContain(s.processedRows);
    expect(Math.max(...both.map((s) => s.processedRows))).toBe(CLIENT_IMPORT_BATCH * 3);
    const { summary, progress } = await runAll(other.owner.token, id);
    expect(progress.every((p) => p <= n)).toBe(true);
    expect(summary).toMatchObject({ status: 'done', totalRows: n, processedRows: n });
    expect(summary.counts).toEqual({ new: 0, imported: n, duplicate: 0, error: 0 });
    // Stepping a finished import again changes nothing.
    expect(await api.clients.import.step.mutate({ importId: id })).toMatchObject({ processedRows: n });
    const imported = await t.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.orgId, other.org.id));
    expect(imported).toHaveLength(n + 1); // and the book's own client
    // The stored count says the same to anyone reading the table: 3,000, not the last row's number.
    const [stored] = await t.db.select().from(clientImports).where(eq(clientImports.id, id));
    expect(stored).toMatchObject({ processedRows: n, totalRows: n, cursorRow: n + 2 });
  }, 120_000);

  it('refuses files it cannot read, with the reason, and stages nothing', async () => {
    const { firm: other } = await firmWithBook('Refusals');
    const noName = await upload(other.owner.token, csv('Email,Phone', 'a@b.test,1'));
    expect(noName).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^No Name column/) },
    });
    const empty = await upload(other.owner.token, csv('Name,Email'));
    expect(empty).toMatchObject({
      status: 400,
      body: { message: 'The file has no clients in it, only the header row' },
    });
    const xlsx = await upload(other.owner.token, new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), 'book.xlsx');
    expect(xlsx).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^This file could not be read as an Excel workbook/) },
    });
    const xls = await upload(other.owner.token, new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0]), 'old.xls');
    expect(xls).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Old Excel \.xls/) } });
    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, other.org.id), like(systemLog.action, 'client.import%')));
    expect(log).toHaveLength(0);
  });

  it('reads semicolon-separated, Windows-1252 files with synonyms for the headers', async () => {
    const { firm: other } = await firmWithBook('Encodings');
    const text = 'Full Name;Mobile No;Pin Code;State\r\nJosé Müller;+49 30 1234;10115;Berlin\r\n';
    const bytes = Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    const res = await upload(other.owner.token, bytes);
    expect(res.status).toBe(200);
    const id = res.body.importId as string;
    await runAll(other.owner.token, id);
    const [row] = await t.db
      .select()
      .from(clients)
      .where(and(eq(clients.orgId, other.org.id), eq(clients.phone, '+49 30 1234')));
    expect(row).toMatchObject({ name: 'José Müller', postalCode: '10115', region: 'Berlin' });
  });
});

describe('import access', () => {
  it('answers NOT_FOUND for another firm’s or another member’s import, and 404 for its errors file', async () => {
    const { firm } = await firmWithBook('Owner firm');
    const { firm: other } = await firmWithBook('Other firm');
    const importId = await uploadOk(firm.owner.token, BAD_ROWS);
    const api = t.client(other.owner.token);
    for (const call of [
      () => api.clients.import.get.query({ importId }),
      () => api.clients.import.rows.query({ importId }),
      () => api.clients.import.step.mutate({ importId }),
      () => api.clients.import.discard.mutate({ importId }),
    ]) {
      await expect(call()).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
    expect((await download(`/api/clients/import/${importId}/errors.csv`, other.owner.token)).status).toBe(
      404,
    );
    // Nothing of it landed anywhere.
    expect((await t.client(firm.owner.token).clients.list.query({})).total).toBe(1);
    expect((await api.clients.list.query({})).total).toBe(1);
    // Its owner can still discard it; then it is gone.
    const own = t.client(firm.owner.token);
    await own.clients.import.discard.mutate({ importId });
    await expect(own.clients.import.get.query({ importId })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
  });

  it('needs clients.create to upload or import', async () => {
    const { firm } = await firmWithBook('Permissions');
    const importId = await uploadOk(firm.owner.token, BAD_ROWS);
    // The seeded staff of the test firm holds clients.view only.
    const res = await upload(firm.staff.token, BAD_ROWS);
    expect(res).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } });
    const staff = t.client(firm.staff.token);
    await expect(staff.clients.import.step.mutate({ importId })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(staff.clients.import.get.query({ importId })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const anonymous = await fetch(`${t.url}/api/clients/import`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect((await t.client(firm.owner.token).clients.list.query({})).total).toBe(1);
  });

  it('keeps an assigned-only member’s imports in sight and never names clients they cannot see', async () => {
    const { firm } = await firmWithBook('Assigned');
    const roleMembers = await membersForSeededRoles(t, firm);
    const staff = roleMembers.find((m) => m.role === 'Staff') as TRoleMember;
    // A Staff role that may also add clients.
    const [role] = await t.db
      .insert(roles)
      .values({
        orgId: firm.org.id,
        name: 'Importer',
        permissions: ['clients.view', 'clients.create'],
        assignedClientsOnly: true,
      })
      .returning();
    if (!role) throw new Error('role not created');
    const { members } = await import('../../db/schema');
    await t.db.update(members).set({ roleId: role.id }).where(eq(members.id, staff.id));
    const importId = await uploadOk(
      staff.token,
      csv('Name,Email', 'New One,new@one.test', 'Copy,rakesh@mehta.test'),
    );
    const { rows } = await t.client(staff.token).clients.import.rows.query({ importId });
    expect(rows[1]?.messages).toEqual([{ field: 'email', message: 'Same email as an existing client' }]);
    await runAll(staff.token, importId);
    const seen = await t.client(staff.token).clients.list.query({});
    expect(seen.rows.map((r) => r.name)).toEqual(['New One']);
    const team = await t.db.select().from(clientTeam).where(eq(clientTeam.memberId, staff.id));
    expect(team).toHaveLength(1);
  });
});

describe('export', () => {
  it('exports the list’s filter as CSV in the import’s columns, logged, and reads back in', async () => {
    const { firm, api, group } = await firmWithBook('Exporters');
    await api.clients.create.mutate({
      code: 'C002',
      name: 'Sharma Traders',
      type: 'partnership',
      tags: ['gst', 'audit'],
    });
    await api.clients.create.mutate({
      code: 'C003',
      name: 'Acme Pvt Ltd',
      type: 'company',
      status: 'inactive',
    });
    const archived = await api.clients.create.mutate({
      code: 'C004',
      name: 'Old Mehta',
      notes: 'line one\nline two',
    });
    await api.clients.archive.mutate({ clientId: archived.id });

    const all = await download('/api/clients/export.csv', firm.owner.token);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toMatch(
      /^attachment; filename="clients-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(
      all.text.startsWith(
        '\uFEFFCode,Name,Type,Email,Phone,Address line 1,Address line 2,City,Region,Postal code,Country,Tax IDs,Group,Tags,Status,Notes,GST scheme,Turnover band,CIN,LLPIN,Tax audit,Transfer pricing,Collects TCS\r\n',
      ),
    ).toBe(true);
    expect(all.records.slice(1).map((r) => r[0])).toEqual(['C003', 'C001', 'C002']);
    expect(all.records[2]).toEqual([
      'C001',
      'Rakesh Mehta',
      'Individual',
      'rakesh@mehta.test',
      '',
      '',
      '',
      '',
      '',
      '',
      'IN',
      'PAN:ABCDE1234F',
      group.name,
      'vip',
      'Active',
      '',
      // The statutory registrations (issue 39): none recorded.
      ...['', '', '', '', '', '', ''],
    ]);
    expect(all.records[3]?.[13]).toBe('gst; audit');

    const q = async (query: string) =>
      (await download(`/api/clients/export.csv?${query}`, firm.owner.token)).records
        .slice(1)
        .map((r) => r[0]);
    expect(await q('type=company')).toEqual(['C003']);
    expect(await q('status=active&sort=code&direction=desc')).toEqual(['C002', 'C001']);
    expect(await q('search=mehta')).toEqual(['C001']);
    // As the list: a substring first, names within typo distance only when nothing contains it.
    expect(await q('search=mehtta')).toEqual(['C001']);
    expect(await q('search=c00')).toEqual(['C003', 'C001', 'C002']);
    expect(await q('search=mehta&archived=include')).toEqual(['C004', 'C001']);
    expect(await q(`groupId=${group.id}`)).toEqual(['C001']);
    expect(await q('tags=gst&tags=audit')).toEqual(['C002']);
    const notes = await download('/api/clients/export.csv?archived=only', firm.owner.token);
    expect(notes.records[1]?.[15]).toBe('line one\nline two');
    expect((await download('/api/clients/export.csv?type=spaceship', firm.owner.token)).status).toBe(400);
    expect((await fetch(`${t.url}/api/clients/export.csv`)).status).toBe(401);

    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'client.export')))
      .orderBy(systemLog.at);
    expect(log[0]?.summary).toBe('Exported 3 clients to CSV (no filter)');
    expect(log[1]?.summary).toBe('Exported 1 client to CSV (type company)');

    // What comes out goes back in: into a fresh firm, every row is new.
    const { firm: other } = await firmWithBook('Round trip');
    await t.db.insert(clientGroups).values({ orgId: other.org.id, name: 'Unused' });
    const importId = await uploadOk(other.owner.token, all.text.replace('Rakesh Mehta', 'R Mehta'));
    const summary = await t.client(other.owner.token).clients.import.get.query({ importId });
    // C001 exists there (same code, email and PAN): the other two are new.
    expect(summary.counts).toMatchObject({ new: 2, error: 1 });
  });

  it('gives an assigned-only member their clients only', async () => {
    const { firm, api } = await firmWithBook('Export scope');
    const acme = await api.clients.create.mutate({ code: 'C009', name: 'Acme' });
    const roleMembers = await membersForSeededRoles(t, firm);
    const staff = roleMembers.find((m) => m.role === 'Staff') as TRoleMember;
    await t.db.insert(clientTeam).values({ orgId: firm.org.id, clientId: acme.id, memberId: staff.id });
    const res = await download('/api/clients/export.csv', staff.token);
    expect(res.records.slice(1).map((r) => r[1])).toEqual(['Acme']);
  });
});
