import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTeam, members, roles, systemLog, vaultEntries } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles, type TRoleMember } from '../../test/role-members';
import { keyringOf } from './crypto';
import { vaultKeyring } from './keys';
import { rotateVaultKeys } from './rotate';
import { revealPassword } from './service';

const k1 = { id: 'k1', key: randomBytes(32) };
let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ VAULT_KEYS: `${k1.id}:${k1.key.toString('base64')}` });
});
afterAll(() => t?.close());

const notFound = { data: { code: 'NOT_FOUND' } };
const forbidden = { data: { code: 'FORBIDDEN' } };
const badRequest = { data: { code: 'BAD_REQUEST' } };
/** A distinctive plaintext per test, so a search of the database cannot hit anything else. */
const secret = () => `Pw-${randomBytes(9).toString('base64url')}-!`;

const logOf = (orgId: string, action: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), like(systemLog.action, action)))
    .orderBy(systemLog.at);

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  const mehta = await api.clients.create.mutate({ code: 'C1', name: 'Rakesh Mehta' });
  const sharma = await api.clients.create.mutate({ code: 'C2', name: 'Sharma Traders' });
  return { ...f, api, mehta, sharma };
}

async function memberWith(orgId: string, permissions: string[], assignedClientsOnly = false) {
  const [role] = await t.db
    .insert(roles)
    .values({ orgId, name: `Role ${randomUUID()}`, permissions, assignedClientsOnly })
    .returning();
  if (!role) throw new Error('role not created');
  const sub = randomUUID();
  const [member] = await t.db
    .insert(members)
    .values({
      orgId,
      sub,
      email: `${sub}@example.test`,
      firstName: 'Pat',
      lastName: 'Custom',
      roleId: role.id,
      isVerified: true,
    })
    .returning();
  if (!member) throw new Error('member not created');
  return { ...member, api: t.client(await t.tokenFor(sub)) };
}

describe('create, reveal, edit, delete', () => {
  it('round-trips a password that lists and details never carry', async () => {
    const f = await firm('Round trip');
    const password = secret();
    const created = await f.api.vault.create.mutate({
      title: 'GST portal',
      clientId: f.mehta.id,
      url: 'https://www.gst.gov.in',
      username: 'mehta.gst',
      password,
      notes: 'OTP goes to the partner',
      tags: ['GST', 'gst', 'gov'],
    });
    const list = await f.api.vault.list.query({});
    expect(list.total).toBe(1);
    expect(list.rows[0]).toMatchObject({
      title: 'GST portal',
      username: 'mehta.gst',
      url: 'https://www.gst.gov.in',
      tags: ['gst', 'gov'],
      client: { id: f.mehta.id, name: 'Rakesh Mehta', code: 'C1' },
      passwordChangedBy: { id: f.owner.id, name: 'Olivia Owner' },
    });
    const detail = await f.api.vault.get.query({ id: created.id });
    expect(detail.notes).toBe('OTP goes to the partner');
    for (const shape of [list, detail]) {
      const json = JSON.stringify(shape);
      expect(json).not.toContain(password);
      expect(json).not.toMatch(/cipher|wrapped|"iv"|"tag"|keyId|password"/i);
    }
    const revealed = await f.api.vault.reveal.mutate({ id: created.id });
    expect(revealed.password).toBe(password);
    // Stored sealed: nothing in the row is the plaintext.
    const [row] = await t.db.select().from(vaultEntries).where(eq(vaultEntries.id, created.id));
    expect(row?.keyId).toBe('k1');
    expect(row?.passwordCiphertext.includes(Buffer.from(password))).toBe(false);
  });

  it('keeps the password on an edit without one; a new one records when and who', async () => {
    const f = await firm('Edit');
    const admin = await memberWith(f.org.id, ['vault.view', 'vault.edit', 'vault.reveal']);
    const first = secret();
    const { id } = await f.api.vault.create.mutate({ title: 'Bank', password: first });
    const [before] = await t.db.select().from(vaultEntries).where(eq(vaultEntries.id, id));
    const data = { title: 'Bank (HDFC)', clientId: null, url: 'netbanking.hdfc', username: 'firm', tags: [] };
    expect(await admin.api.vault.update.mutate({ id, data })).toEqual({ id, changed: true });
    expect((await admin.api.vault.reveal.mutate({ id })).password).toBe(first);
    let detail = await f.api.vault.get.query({ id });
    expect(detail.passwordChangedAt).toEqual(before?.passwordChangedAt);
    expect(detail.passwordChangedBy?.id).toBe(f.owner.id);

    const second = secret();
    await admin.api.vault.update.mutate({ id, data: { ...data, password: second } });
    expect((await admin.api.vault.reveal.mutate({ id })).password).toBe(second);
    detail = await f.api.vault.get.query({ id });
    expect(detail.passwordChangedBy).toEqual({ id: admin.id, name: 'Pat Custom' });
    expect(detail.passwordChangedAt.getTime()).toBeGreaterThan(before?.passwordChangedAt.getTime() ?? 0);
    // Nothing changed: no write, no log row.
    expect(await admin.api.vault.update.mutate({ id, data })).toEqual({ id, changed: false });

    const updates = await logOf(f.org.id, 'vault.update');
    expect(updates).toHaveLength(2);
    expect(updates[1]?.changes).toEqual({ password: { from: '••••••••', to: '••••••••' } });
    expect(JSON.stringify(updates)).not.toContain(first);
  });

  it('deletes (audited), and the entry is gone', async () => {
    const f = await firm('Delete');
    const { id } = await f.api.vault.create.mutate({ title: 'Old portal', password: secret() });
    await f.api.vault.delete.mutate({ id });
    await expect(f.api.vault.get.query({ id })).rejects.toMatchObject(notFound);
    expect((await f.api.vault.list.query({})).total).toBe(0);
    expect((await logOf(f.org.id, 'vault.delete'))[0]?.summary).toBe(
      'Deleted the password entry “Old portal”',
    );
  });

  it('validates with messages a person can act on, and changes nothing', async () => {
    const f = await firm('Validate');
    const bad = [
      { title: '', password: 'x' },
      { title: 'No password', password: '' },
      { title: 'Bad client', password: 'x', clientId: 'not-a-uuid' },
      { title: 'x'.repeat(201), password: 'x' },
      { title: 'Long', password: 'x'.repeat(1001) },
    ];
    for (const input of bad) {
      await expect(f.api.vault.create.mutate(input)).rejects.toMatchObject(badRequest);
    }
    await expect(f.api.vault.create.mutate({ title: '', password: 'x' })).rejects.toThrow('Enter a title');
    await expect(f.api.vault.create.mutate({ title: 'T', password: '' })).rejects.toThrow(
      'Enter the password',
    );
    expect((await f.api.vault.list.query({})).total).toBe(0);
    expect(await logOf(f.org.id, 'vault.%')).toHaveLength(0);
  });
});

describe('list', () => {
  it('searches title, username and URL, filters by client, firm-wide and tag, sorts and pages', async () => {
    const f = await firm('List');
    const make = (title: string, extra: Record<string, unknown> = {}) =>
      f.api.vault.create.mutate({ title, password: secret(), ...extra });
    await make('Income tax portal', { clientId: f.mehta.id, username: 'ABCDE1234F', tags: ['tax'] });
    await make('GST portal', { clientId: f.sharma.id, url: 'https://gst.gov.in', tags: ['tax', 'gst'] });
    await make('Office Wi-Fi', { notes: 'the router is in the store room' });
    await make('Zoho books', { username: 'accounts@firm.test' });
    const titles = async (input: Parameters<typeof f.api.vault.list.query>[0]) =>
      (await f.api.vault.list.query(input)).rows.map((r) => r.title);
    expect(await titles({})).toEqual(['GST portal', 'Income tax portal', 'Office Wi-Fi', 'Zoho books']);
    expect(await titles({ search: 'abcde1234' })).toEqual(['Income tax portal']);
    expect(await titles({ search: 'gst.gov' })).toEqual(['GST portal']);
    expect(await titles({ search: 'acounts' })).toEqual(['Zoho books']);
    expect(await titles({ search: 'store room' })).toEqual([]);
    expect(await titles({ search: '%' })).toEqual([]);
    expect(await titles({ client: f.mehta.id })).toEqual(['Income tax portal']);
    expect(await titles({ client: 'firm' })).toEqual(['Office Wi-Fi', 'Zoho books']);
    expect(await titles({ tag: 'tax' })).toEqual(['GST portal', 'Income tax portal']);
    expect(await titles({ tag: 'gst', client: f.mehta.id })).toEqual([]);
    expect(await titles({ direction: 'desc' })).toEqual([
      'Zoho books',
      'Office Wi-Fi',
      'Income tax portal',
      'GST portal',
    ]);
    expect(await titles({ sort: 'passwordChangedAt', direction: 'desc', pageSize: 1, page: 2 })).toEqual([
      'Office Wi-Fi',
    ]);
    const page = await f.api.vault.list.query({ pageSize: 3, page: 2 });
    expect(page.total).toBe(4);
    expect(page.rows.map((r) => r.title)).toEqual(['Zoho books']);
    const facets = await f.api.vault.facets.query();
    expect(facets.clients.map((c) => c.name)).toEqual(['Rakesh Mehta', 'Sharma Traders']);
    expect(facets.tags).toEqual(['gst', 'tax']);
    expect((await f.api.vault.clients.query({ search: 'shar' })).map((c) => c.code)).toEqual(['C2']);
  });
});

describe('permissions', () => {
  it('reveal needs vault.reveal (FORBIDDEN without it) and vault.view; other rights as the matrix says', async () => {
    const f = await firm('Rights');
    const { id } = await f.api.vault.create.mutate({ title: 'Portal', password: secret() });
    const roleMembers = await membersForSeededRoles(t, f);
    const role = (name: string) => roleMembers.find((m) => m.role === name) as TRoleMember;
    const can = async (p: Promise<unknown>) =>
      p.then(
        () => true,
        (e) => {
          expect(e.data.code).toBe('FORBIDDEN');
          return false;
        },
      );
    const matrix = {
      Owner: [true, true, true, true],
      Admin: [true, true, true, true],
      Manager: [true, true, false, false],
      Staff: [true, false, false, false],
    } as const;
    for (const [name, [view, reveal, create, del]] of Object.entries(matrix)) {
      const api = t.client(role(name).token);
      expect(await can(api.vault.list.query({})), `${name} list`).toBe(view);
      expect(await can(api.vault.reveal.mutate({ id })), `${name} reveal`).toBe(reveal);
      expect(
        await can(api.vault.create.mutate({ title: `By ${name}`, password: 'p' })),
        `${name} create`,
      ).toBe(create);
      if (!del) await expect(api.vault.delete.mutate({ id })).rejects.toMatchObject(forbidden);
    }
    // The seeded firm's staff holds no vault right at all.
    await expect(t.client(f.staff.token).vault.list.query({})).rejects.toMatchObject(forbidden);
    // vault.reveal alone, without sight of the vault, reveals nothing.
    const revealOnly = await memberWith(f.org.id, ['vault.reveal']);
    await expect(revealOnly.api.vault.reveal.mutate({ id })).rejects.toMatchObject(forbidden);
    // Owner, Admin and Manager revealed it.
    expect(await logOf(f.org.id, 'vault.reveal')).toHaveLength(3);
  });

  it('assigned clients only: firm-wide entries and assigned clients’ entries; the rest NOT_FOUND', async () => {
    const f = await firm('Assigned');
    const mine = await f.api.vault.create.mutate({
      title: 'Mehta IT',
      clientId: f.mehta.id,
      password: secret(),
    });
    const other = await f.api.vault.create.mutate({
      title: 'Sharma IT',
      clientId: f.sharma.id,
      password: secret(),
    });
    const firmWide = await f.api.vault.create.mutate({ title: 'Firm Wi-Fi', password: secret() });
    const limited = await memberWith(
      f.org.id,
      ['vault.view', 'vault.reveal', 'vault.create', 'vault.edit', 'vault.delete', 'clients.view'],
      true,
    );
    await t.db.insert(clientTeam).values({ orgId: f.org.id, clientId: f.mehta.id, memberId: limited.id });
    const api = limited.api;
    expect((await api.vault.list.query({})).rows.map((r) => r.title)).toEqual(['Firm Wi-Fi', 'Mehta IT']);
    expect((await api.vault.list.query({ client: f.sharma.id })).total).toBe(0);
    expect((await api.vault.facets.query()).clients.map((c) => c.code)).toEqual(['C1']);
    expect((await api.vault.clients.query({})).map((c) => c.code)).toEqual(['C1']);
    await api.vault.reveal.mutate({ id: mine.id });
    await api.vault.reveal.mutate({ id: firmWide.id });
    await expect(api.vault.get.query({ id: other.id })).rejects.toMatchObject(notFound);
    await expect(api.vault.reveal.mutate({ id: other.id })).rejects.toMatchObject(notFound);
    await expect(api.vault.delete.mutate({ id: other.id })).rejects.toMatchObject(notFound);
    await expect(
      api.vault.update.mutate({ id: mine.id, data: { title: 'Moved', clientId: f.sharma.id } }),
    ).rejects.toMatchObject(notFound);
    await expect(
      api.vault.create.mutate({ title: 'Sneaky', clientId: f.sharma.id, password: 'x' }),
    ).rejects.toMatchObject(notFound);
  });
});

describe('audit', () => {
  it('logs each reveal and each copy apart, with who, and never the password', async () => {
    const f = await firm('Audit');
    const password = secret();
    const { id } = await f.api.vault.create.mutate({ title: 'MCA portal', clientId: f.sharma.id, password });
    await f.api.vault.reveal.mutate({ id, purpose: 'view' });
    await f.api.vault.reveal.mutate({ id, purpose: 'copy' });
    const reveals = await logOf(f.org.id, 'vault.reveal');
    const copies = await logOf(f.org.id, 'vault.copy');
    expect(reveals).toHaveLength(1);
    expect(copies).toHaveLength(1);
    expect(reveals[0]).toMatchObject({
      recordType: 'vault_entry',
      recordId: id,
      actorMemberId: f.owner.id,
      summary: 'Revealed the password of “MCA portal”',
    });
    expect(copies[0]?.summary).toBe('Copied the password of “MCA portal”');
    const created = await logOf(f.org.id, 'vault.create');
    expect(created[0]?.summary).toBe('Added the password “MCA portal” of Sharma Traders');
    expect(JSON.stringify(await logOf(f.org.id, '%'))).not.toContain(password);
    // The system log screen's list shows them.
    const screen = await f.api.systemLog.list.query({ recordType: 'vault_entry' });
    expect(screen.rows.map((r) => r.action).sort()).toEqual(['vault.copy', 'vault.create', 'vault.reveal']);
  });
});

describe('cross-org', () => {
  it('answers NOT_FOUND for another firm’s entry and client, and changes nothing there', async () => {
    const mine = await firm('Cross mine');
    const theirs = await firm('Cross theirs');
    const password = secret();
    const { id } = await theirs.api.vault.create.mutate({ title: 'Their bank', password });
    await expect(mine.api.vault.get.query({ id })).rejects.toMatchObject(notFound);
    await expect(mine.api.vault.reveal.mutate({ id })).rejects.toMatchObject(notFound);
    await expect(
      mine.api.vault.update.mutate({ id, data: { title: 'Hijack', password: 'mine' } }),
    ).rejects.toMatchObject(notFound);
    await expect(mine.api.vault.delete.mutate({ id })).rejects.toMatchObject(notFound);
    await expect(
      mine.api.vault.create.mutate({ title: 'X', clientId: theirs.mehta.id, password: 'x' }),
    ).rejects.toMatchObject(notFound);
    expect((await mine.api.vault.list.query({ client: theirs.mehta.id })).total).toBe(0);
    expect((await theirs.api.vault.reveal.mutate({ id })).password).toBe(password);
    expect((await theirs.api.vault.get.query({ id })).title).toBe('Their bank');
  });

  it('a sealed password copied onto another firm’s row does not open there', async () => {
    const a = await firm('Copy A');
    const b = await firm('Copy B');
    const password = secret();
    const src = await a.api.vault.create.mutate({ title: 'Source', password });
    const dst = await b.api.vault.create.mutate({ title: 'Target', password: 'other' });
    const [row] = await t.db.select().from(vaultEntries).where(eq(vaultEntries.id, src.id));
    if (!row) throw new Error('missing');
    await t.db
      .update(vaultEntries)
      .set({
        passwordCiphertext: row.passwordCiphertext,
        passwordIv: row.passwordIv,
        passwordTag: row.passwordTag,
        dataKeyWrapped: row.dataKeyWrapped,
      })
      .where(eq(vaultEntries.id, dst.id));
    await expect(b.api.vault.reveal.mutate({ id: dst.id })).rejects.toMatchObject({
      data: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(await logOf(b.org.id, 'vault.reveal')).toHaveLength(0);
  });
});

describe('the database dump', () => {
  it('contains no plaintext vault password, in any column of any table', async () => {
    const f = await firm('Dump');
    const passwords = [secret(), secret(), 'short!'];
    const { id } = await f.api.vault.create.mutate({ title: 'Dump 1', password: passwords[0] ?? '' });
    await f.api.vault.update.mutate({ id, data: { title: 'Dump 1', password: passwords[1] } });
    await f.api.vault.create.mutate({ title: 'Dump 2', clientId: f.mehta.id, password: passwords[2] ?? '' });
    await f.api.vault.reveal.mutate({ id, purpose: 'copy' });
    const result = await t.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    const tables = ((result as unknown as { rows: { table_name: string }[] }).rows ?? []).map(
      (r) => r.table_name,
    );
    expect(tables).toContain('vault_entries');
    expect(tables).toContain('system_log');
    let dump = '';
    for (const table of tables) {
      const rows = await t.db.execute<{ line: string }>(
        sql`select row_to_json(t)::text as line from ${sql.identifier(table)} t`,
      );
      for (const r of (rows as unknown as { rows: { line: string }[] }).rows) dump += `${r.line}\n`;
    }
    expect(dump).toContain('Dump 2');
    for (const password of passwords) {
      const bytes = Buffer.from(password);
      // As text, as bytea's hex and as base64: no encoding of it anywhere.
      expect(dump).not.toContain(password);
      expect(dump.toLowerCase()).not.toContain(bytes.toString('hex'));
      expect(dump).not.toContain(bytes.toString('base64').replace(/=+$/, ''));
    }
  });
});

// Last: rotation changes every entry of this database.
describe('key rotation', () => {
  it('old key decrypts before; after rotation and removal of the old key, every entry decrypts', async () => {
    const f = await firm('Rotate');
    const scope = {
      orgId: f.org.id,
      memberId: f.owner.id,
      isOwner: true,
      permissions: [],
      assignedClientsOnly: false,
    };
    const meta = { ip: '127.0.0.1', userAgent: null };
    const plain = new Map<string, string>();
    for (let i = 0; i < 5; i++) {
      const password = secret();
      const { id } = await f.api.vault.create.mutate({ title: `Entry ${i}`, password });
      plain.set(id, password);
    }
    const current = await vaultKeyring(t.config);
    expect(current.current.id).toBe('k1');
    const k2 = { id: 'k2', key: randomBytes(32) };
    const both = keyringOf([k2, k1]);
    const onlyNew = keyringOf([k2]);
    const [firstId, firstPassword] = [...plain][0] ?? [];
    if (!firstId) throw new Error('no entry');
    // Before: the new key is current, the old one still opens every entry; the new key alone cannot.
    expect((await revealPassword(t.db, both, scope, { id: firstId, purpose: 'view' }, meta)).password).toBe(
      firstPassword,
    );
    await expect(
      revealPassword(t.db, onlyNew, scope, { id: firstId, purpose: 'view' }, meta),
    ).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('“k1”'),
    });
    const [beforeRow] = await t.db.select().from(vaultEntries).where(eq(vaultEntries.id, firstId));

    // One damaged entry is reported and left alone; it does not stop the others.
    const damaged = await f.api.vault.create.mutate({ title: 'Damaged', password: secret() });
    const [damagedRow] = await t.db.select().from(vaultEntries).where(eq(vaultEntries.id, damaged.id));
    const flipped = Buffer.from(damagedRow?.dataKeyWrapped ?? Buffer.alloc(60));
    flipped[20] = (flipped[20] ?? 0) ^ 0xff;
    await t.db.update(vaultEntries).set({ dataKeyWrapped: flipped }).where(eq(vaultEntries.id, damaged.id));

    const result = await rotateVaultKeys(t.db, both);
    expect(result.rewrapped).toBeGreaterThanOrEqual(5);
    expect(result.failed.map((x) => x.id)).toContain(damaged.id);
    expect(result.byKey.k1).toBe(result.failed.length);
    for (const [id, password] of plain) {
      expect((await revealPassword(t.db, onlyNew, scope, { id, purpose: 'view' }, meta)).password).toBe(
        password,
      );
    }
    const [afterRow] = await t.db.select().from(vaultEntries).where(eq(vaultEntries.id, firstId));
    expect(afterRow?.keyId).toBe('k2');
    expect(afterRow?.passwordCiphertext.equals(beforeRow?.passwordCiphertext ?? Buffer.alloc(0))).toBe(true);
    expect(afterRow?.dataKeyWrapped.equals(beforeRow?.dataKeyWrapped ?? Buffer.alloc(0))).toBe(false);
    expect(afterRow?.updatedAt).toEqual(beforeRow?.updatedAt);
    expect((await logOf(f.org.id, 'vault.rotateKey'))[0]?.summary).toMatch(
      /^Re-encrypted 5 vault password keys/,
    );
    // Run again: nothing left to do.
    const again = await rotateVaultKeys(t.db, both);
    expect(again.rewrapped).toBe(0);
    expect(again.failed).toHaveLength(result.failed.length);
  });
});
