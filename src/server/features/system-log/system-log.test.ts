import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgs, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedFirmWithRoles } from '../../test/seeded-firm';

let t: TTestApp;
let firm: Awaited<ReturnType<typeof seedFirmWithRoles>>;
let other: Awaited<ReturnType<typeof seedFirmWithRoles>>;

const day = (d: number, h = 12) => new Date(Date.UTC(2026, 9, d, h));

beforeAll(async () => {
  t = await createTestApp();
  firm = await seedFirmWithRoles(t, 'Log & Co');
  other = await seedFirmWithRoles(t, 'Other & Co');
  const row = (
    orgId: string,
    actorMemberId: string,
    at: Date,
    action: string,
    recordType: string,
    summary: string,
    extra: Partial<typeof systemLog.$inferInsert> = {},
  ) => ({ orgId, actorKind: 'member' as const, actorMemberId, at, action, recordType, summary, ...extra });
  await t.db.insert(systemLog).values([
    row(firm.org.id, firm.owner.id, day(1), 'role.create', 'role', 'Created the role Reader', {
      recordId: 'r-1',
      ip: '10.0.0.1',
      changes: { name: { from: null, to: 'Reader' } },
    }),
    row(firm.org.id, firm.admin.id, day(2), 'role.update', 'role', 'Changed the role Reader', {
      recordId: 'r-1',
    }),
    row(firm.org.id, firm.owner.id, day(3), 'client.create', 'client', 'Created the client "Acme, Inc."'),
    row(firm.org.id, firm.admin.id, day(4), 'client.update', 'client', '=HYPERLINK("http://evil")'),
    row(firm.org.id, firm.owner.id, day(5), 'role.delete', 'role', 'Deleted the role Reader\nfor good', {
      recordId: 'r-1',
    }),
    row(other.org.id, other.owner.id, day(3), 'secret.create', 'secret', 'Other firm only'),
  ]);
});
afterAll(() => t?.close());

const page = { page: 1, pageSize: 50 };

/** A strict RFC 4180 reader for the assertions: quoted fields, doubled quotes, CRLF records. */
function parse(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || record.length) records.push([...record, field]);
  return records;
}

describe('systemLog.list', () => {
  it('lists only the firm rows, newest first, with the member who acted', async () => {
    const list = await t.client(firm.owner.token).systemLog.list.query(page);
    expect(list.total).toBe(5);
    expect(list.rows.map((r) => r.action)).toEqual([
      'role.delete',
      'client.update',
      'client.create',
      'role.update',
      'role.create',
    ]);
    expect(list.rows[4]).toMatchObject({ actorName: 'Olivia Owner', ip: '10.0.0.1', recordId: 'r-1' });
    expect(list.rows[3]?.actorName).toBe('Ada Admin');
  });

  it('filters by member, record type, action, date range and search', async () => {
    const api = t.client(firm.owner.token);
    const actions = async (input: Parameters<typeof api.systemLog.list.query>[0]) =>
      (await api.systemLog.list.query({ ...page, ...input })).rows.map((r) => r.action);
    expect(await actions({ actorId: firm.admin.id })).toEqual(['client.update', 'role.update']);
    expect(await actions({ recordType: 'client' })).toEqual(['client.update', 'client.create']);
    expect(await actions({ action: 'role.update' })).toEqual(['role.update']);
    expect(await actions({ from: day(2, 0), to: day(3, 23) })).toEqual(['client.create', 'role.update']);
    expect(await actions({ search: 'acme' })).toEqual(['client.create']);
    expect(await actions({ search: '100%' })).toEqual([]);
    expect(await actions({ recordType: 'role', actorId: firm.owner.id })).toEqual([
      'role.delete',
      'role.create',
    ]);
    // Another firm's member as a filter finds nothing here.
    expect(await actions({ actorId: other.owner.id })).toEqual([]);
  });

  it('sorts and pages on the server without repeating or skipping a row', async () => {
    const api = t.client(firm.owner.token);
    const seen: string[] = [];
    for (let p = 1; p <= 3; p++) {
      const got = await api.systemLog.list.query({ page: p, pageSize: 2, direction: 'asc' });
      expect(got.total).toBe(5);
      seen.push(...got.rows.map((r) => r.action));
    }
    expect(seen).toEqual(['role.create', 'role.update', 'client.create', 'client.update', 'role.delete']);
    const byAction = await api.systemLog.list.query({ ...page, sort: 'action', direction: 'asc' });
    expect(byAction.rows[0]?.action).toBe('client.create');
  });

  it('refuses a range that ends before it starts, with a message a person can act on', async () => {
    await expect(
      t.client(firm.owner.token).systemLog.list.query({ ...page, from: day(5), to: day(1) }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('The start date must be on or before the end date'),
    });
  });
});

describe('systemLog.facets', () => {
  it("offers the firm's record types, actions and members, and nothing of another firm", async () => {
    const facets = await t.client(firm.owner.token).systemLog.facets.query();
    expect(facets.recordTypes).toEqual(['client', 'role']);
    expect(facets.actions).toEqual([
      'client.create',
      'client.update',
      'role.create',
      'role.delete',
      'role.update',
    ]);
    expect(facets.actors.map((a) => a.name).sort()).toEqual([
      'Ada Admin',
      'Manu Manager',
      'Olivia Owner',
      'Sam Staff',
    ]);
  });
});

describe('CSV export', () => {
  const exportCsv = (token: string | null, query = '') =>
    fetch(`${t.url}/api/systemlog/export.csv${query ? `?${query}` : ''}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('exports the current filter as RFC 4180 CSV, escaping quotes, commas, newlines and formulas', async () => {
    const res = await exportCsv(other.owner.token);
    expect(res.status).toBe(200);
    const all = await exportCsv(firm.owner.token, 'sort=at&direction=asc');
    expect(all.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(all.headers.get('content-disposition')).toMatch(
      /^attachment; filename="system-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // Response.text() would drop the BOM: decode by hand to see it.
    const body = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await all.arrayBuffer());
    // A BOM so spreadsheets read UTF-8, and CRLF line ends.
    expect(body.startsWith('\uFEFF')).toBe(true);
    expect(body.split('\r\n')[0]).toBe(
      '\uFEFFWhen (UTC),Member,Actor kind,Action,Record type,Record id,Summary,Changes,IP,User agent',
    );
    expect(body).toContain('"Created the client ""Acme, Inc."""');
    expect(body).toContain('"Deleted the role Reader\nfor good"');
    // A cell that a spreadsheet would run as a formula is neutralised.
    expect(body).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const records = parse(body.slice(1));
    expect(records[0]?.[0]).toBe('When (UTC)');
    // The header, the five rows of this firm, and not the export's own entry (written after its cut-off).
    expect(records.filter((r) => r.length > 1)).toHaveLength(6);
    expect(records[1]).toEqual([
      // ISO 8601 on the firm's clock: this firm keeps UTC.
      '2026-10-01T12:00:00Z',
      'Olivia Owner',
      'member',
      'role.create',
      'role',
      'r-1',
      'Created the role Reader',
      // The changes as JSON (jsonb keeps keys in its own order, so compared parsed below).
      expect.any(String),
      '10.0.0.1',
      '',
    ]);
    expect(JSON.parse(records[1]?.[7] ?? '')).toEqual({ name: { from: null, to: 'Reader' } });
    expect(body).not.toContain('Other firm only');
  });

  it('applies the filter, and writes a system log entry for each export', async () => {
    const res = await exportCsv(firm.admin.token, `recordType=role&actorId=${firm.owner.id}&direction=asc`);
    const records = parse(await res.text()).filter((r) => r.length > 1);
    expect(records.slice(1).map((r) => r[3])).toEqual(['role.create', 'role.delete']);
    const log = await t
      .client(firm.owner.token)
      .systemLog.list.query({ ...page, action: 'systemLog.export' });
    expect(log.rows[0]).toMatchObject({ actorMemberId: firm.admin.id, recordType: 'systemLog' });
    expect(log.rows[0]?.summary).toBe(
      `Exported 2 system log entries to CSV (member ${firm.owner.id}, record type role)`,
    );
  });

  it('writes times on the firm’s clock, with its offset, and names the file for the firm’s day', async () => {
    await t.db.update(orgs).set({ timeZone: 'Asia/Kolkata' }).where(eq(orgs.id, firm.org.id));
    try {
      const res = await exportCsv(firm.owner.token, 'sort=at&direction=asc');
      const records = parse((await res.text()).replace(/^\uFEFF/, '')).filter((r) => r.length > 1);
      expect(records[0]?.[0]).toBe('When (Asia/Kolkata)');
      // 12:00 UTC is 17:30 in Kolkata; the offset keeps the exact instant for a program.
      expect(records[1]?.[0]).toBe('2026-10-01T17:30:00+05:30');
      expect(new Date(records[1]?.[0] ?? '').getTime()).toBe(day(1).getTime());
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="system-log-${today}.csv"`);
    } finally {
      await t.db.update(orgs).set({ timeZone: 'UTC' }).where(eq(orgs.id, firm.org.id));
    }
  });

  it('refuses without a sign-in, without the right, and with a bad filter', async () => {
    expect((await exportCsv(null)).status).toBe(401);
    const forbidden = await exportCsv(firm.staff.token);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ message: 'You do not have permission to do this' });
    const bad = await exportCsv(firm.owner.token, 'from=yesterday');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'The start date is not a date' });
    const backwards = await exportCsv(
      firm.owner.token,
      `from=${day(5).toISOString()}&to=${day(1).toISOString()}`,
    );
    expect(backwards.status).toBe(400);
  });
});
