import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeys, clients, roles, services, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TFirm = Awaited<ReturnType<TTestApp['seedFirm']>>;

async function keyFor(firm: TFirm, roleId = firm.roles.owner.id, name = 'Zapier') {
  return t.client(firm.owner.token).apiKeys.create.mutate({ name, roleId });
}

function call(
  secret: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${t.url}/api/v1${path}`, {
    method,
    headers: {
      ...(secret ? { authorization: `Bearer ${secret}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function json(response: Response) {
  return (await response.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> };
}

describe('API keys', () => {
  it('are shown once, stored hashed, listed without the secret, and revoked', async () => {
    const firm = await t.seedFirm('Keys & Co');
    const api = t.client(firm.owner.token);
    const made = await keyFor(firm);
    expect(made.secret).toMatch(/^pk_live_[\w-]{43}$/);
    const [stored] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, made.id));
    expect(stored?.secretHash).not.toContain(made.secret);
    expect(JSON.stringify(stored)).not.toContain(made.secret.slice(20));
    const listed = await api.apiKeys.list.query();
    expect(listed).toMatchObject([
      { id: made.id, name: 'Zapier', state: 'active', roleName: 'Owner', lastUsedAt: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    expect((await call(made.secret, 'GET', '/clients')).status).toBe(200);
    await api.apiKeys.revoke.mutate({ apiKeyId: made.id });
    const refused = await call(made.secret, 'GET', '/clients');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(await refused.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('refuses a missing, unknown or expired key, and a staff member may not manage keys', async () => {
    const firm = await t.seedFirm('Expiry & Co');
    expect((await call(null, 'GET', '/clients')).status).toBe(401);
    expect((await call('pk_live_nothing-of-the-sort-at-all-here', 'GET', '/clients')).status).toBe(401);
    const made = await keyFor(firm);
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, made.id));
    expect((await call(made.secret, 'GET', '/clients')).status).toBe(401);
    await expect(t.client(firm.staff.token).apiKeys.list.query()).rejects.toThrow(/permission/);
    await expect(
      t.client(firm.owner.token).apiKeys.create.mutate({ name: 'x', roleId: randomUUID() }),
    ).rejects.toThrow(/role does not exist/);
  });
});

describe('REST /api/v1', () => {
  it('creates, reads, replaces and lists clients with cursor paging, each call logged with the key', async () => {
    const firm = await t.seedFirm('Rest & Co');
    const { secret, id: keyId } = await keyFor(firm);
    const created = await call(secret, 'POST', '/clients', {
      code: 'AC-1',
      name: 'Asha Rao',
      email: 'asha@rao.test',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const got = await json(await call(secret, 'GET', `/clients/${id}`));
    expect(got).toMatchObject({ id, code: 'AC-1', name: 'Asha Rao', email: 'asha@rao.test' });

    const replaced = await call(secret, 'PUT', `/clients/${id}`, { code: 'AC-1', name: 'Asha R. Rao' });
    expect(replaced.status).toBe(200);
    expect(await json(await call(secret, 'GET', `/clients/${id}`))).toMatchObject({ name: 'Asha R. Rao' });

    for (const n of [2, 3]) await seedClient(t, firm.org.id, { name: `Client ${n}`, code: `AC-${n}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const query: string = `/clients?limit=2&sort=code&direction=asc${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await json(await call(secret, 'GET', query));
      seen.push(...(page.data ?? []).map((row) => String(row.code)));
      cursor = page.nextCursor as string | null;
      if (!cursor) break;
    }
    expect(seen).toEqual(['AC-1', 'AC-2', 'AC-3']);
    // A filter from the same schema the app's list takes.
    const filtered = await json(await call(secret, 'GET', '/clients?search=Asha'));
    expect(filtered.data?.map((r) => r.code)).toEqual(['AC-1']);

    // Seven calls: create, get, replace, get, two pages, a search. Each is logged once answered.
    const log = await vi.waitFor(async () => {
      const rows = await t.db
        .select()
        .from(systemLog)
        .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.actorApiKeyId, keyId)));
      expect(rows.filter((r) => r.action === 'api.call')).toHaveLength(7);
      return rows;
    });
    expect(log.find((r) => r.action === 'client.create')).toMatchObject({
      actorMemberId: firm.owner.id,
      recordId: id,
    });
    const screen = await t
      .client(firm.owner.token)
      .systemLog.list.query({ page: 1, pageSize: 50, recordType: 'client' });
    expect(screen.rows[0]?.actorName).toMatch(/^API key Zapier/);
  });

  it("answers problems: bad input with each field, unknown routes, another firm's ids as 404", async () => {
    const firm = await t.seedFirm('Problems & Co');
    const other = await t.seedFirm('Other & Co');
    const { secret } = await keyFor(firm);
    const bad = await call(secret, 'POST', '/clients', { code: 'a b' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const body = await json(bad);
    expect(body).toMatchObject({ status: 400, code: 'BAD_REQUEST', title: expect.any(String) });
    expect(Object.keys(body.errors as object)).toEqual(expect.arrayContaining(['code', 'name']));
    expect((await call(secret, 'POST', '/clients', '{not json')).status).toBe(400);
    expect((await call(secret, 'GET', '/nothing-here')).status).toBe(404);
    expect((await call(secret, 'GET', '/clients?cursor=zzz')).status).toBe(400);

    const theirs = await seedClient(t, other.org.id, { name: 'Not yours' });
    const crossed = await call(secret, 'GET', `/clients/${theirs.id}`);
    expect(crossed.status).toBe(404);
    expect(await crossed.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      (await call(secret, 'PUT', `/clients/${theirs.id}`, { code: 'X-1', name: 'Mine now' })).status,
    ).toBe(404);
    expect((await call(secret, 'GET', `/clients/${theirs.id}/contacts`)).status).toBe(404);
    const [still] = await t.db.select().from(clients).where(eq(clients.id, theirs.id));
    expect(still?.name).toBe('Not yours');
  });

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const firm = await t.seedFirm('Idem & Co');
    const { secret } = await keyFor(firm);
    const headers = { 'idempotency-key': 'create-asha-1' };
    const first = await call(secret, 'POST', '/clients', { code: 'ID-1', name: 'Asha' }, headers);
    const again = await call(secret, 'POST', '/clients', { code: 'ID-1', name: 'Asha' }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    const rows = await t.db.select().from(clients).where(eq(clients.orgId, firm.org.id));
    expect(rows).toHaveLength(1);
    const other = await call(secret, 'POST', '/clients', { code: 'ID-2', name: 'Ben' }, headers);
    expect(other.status).toBe(422);
  });

  it('a key with a limited role reaches only what the role reaches', async () => {
    const firm = await t.seedFirm('Limited & Co');
    const { secret } = await keyFor(firm, firm.roles.staff.id, 'Read only');
    expect((await call(secret, 'GET', '/clients')).status).toBe(200);
    const refused = await call(secret, 'POST', '/clients', { code: 'L-1', name: 'Nope' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await call(secret, 'GET', '/services')).status).toBe(403);
    expect((await call(secret, 'GET', '/invoices')).status).toBe(403);

    // A write answers the record as its GET does: a role that may create services but not see
    // them is refused before anything is written, rather than answered less than documented.
    const [blind] = await t.db
      .insert(roles)
      .values({ orgId: firm.org.id, name: 'Blind maker', permissions: ['services.create'] })
      .returning();
    if (!blind) throw new Error('role not made');
    const maker = await keyFor(firm, blind.id, 'Blind maker');
    const blindCreate = await call(maker.secret, 'POST', '/services', {
      name: 'GST returns',
      code: 'GST-M',
      frequency: 'monthly',
    });
    expect(blindCreate.status).toBe(403);
    expect(
      await t.db
        .select()
        .from(services)
        .where(and(eq(services.orgId, firm.org.id), eq(services.code, 'GST-M'))),
    ).toHaveLength(0);
  });
});

describe('API key rate limit', () => {
  it('counts each key on its own and answers 429 as a problem', async () => {
    const limited = await createTestApp({ API_KEY_RATE_PER_MINUTE: '3' });
    try {
      const firm = await limited.seedFirm('Busy & Co');
      const a = await limited
        .client(firm.owner.token)
        .apiKeys.create.mutate({ name: 'A', roleId: firm.roles.owner.id });
      const b = await limited
        .client(firm.owner.token)
        .apiKeys.create.mutate({ name: 'B', roleId: firm.roles.owner.id });
      const get = (secret: string) =>
        fetch(`${limited.url}/api/v1/clients`, { headers: { authorization: `Bearer ${secret}` } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(a.secret)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const last = await get(a.secret);
      expect(last.headers.get('content-type')).toContain('application/problem+json');
      expect(last.headers.get('retry-after')).toBeTruthy();
      expect((await get(b.secret)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
