import http from 'node:http';
import net from 'node:net';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../test/app';

let t: TTestApp;
let firm: Awaited<ReturnType<TTestApp['seedFirm']>>;
beforeAll(async () => {
  t = await createTestApp({
    PRODUCTION_HOST: 'app.example.com',
    POSTHOG_KEY: 'phc_test',
    GTM_ID: 'GTM-AB12',
  });
  firm = await t.seedFirm();
});
afterAll(() => t?.close());

describe('tRPC over HTTP, as the browser calls it', () => {
  it('batches queries as one GET with the input as a query parameter', async () => {
    const input = encodeURIComponent(
      JSON.stringify({
        0: superjson.serialize(undefined),
        1: superjson.serialize({ page: 1, pageSize: 10 }),
      }),
    );
    const res = await fetch(`${t.url}/api/trpc/profile.me,systemLog.list?batch=1&input=${input}`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Array<{ result: { data: { json: Record<string, unknown> } } }>;
    expect(body).toHaveLength(2);
    expect(body[0]?.result.data.json).toMatchObject({ id: firm.owner.id, isOwner: true });
    expect(body[1]?.result.data.json).toMatchObject({ page: 1, pageSize: 10, total: 0, rows: [] });
  });

  it('sends mutations as POST with a JSON body', async () => {
    const res = await fetch(`${t.url}/api/trpc/auth.logout?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${firm.owner.token}` },
      body: JSON.stringify({ 0: superjson.serialize(undefined) }),
    });
    expect(res.status).toBe(200);
    // The sign-out was audited in the firm's system log.
    const log = await t.client(firm.owner.token).systemLog.list.query({});
    expect(log.rows[0]).toMatchObject({
      action: 'auth.logout',
      actorMemberId: firm.owner.id,
      actorName: 'Olivia Owner',
    });
  });

  it('refuses a mutation sent as GET', async () => {
    const res = await fetch(`${t.url}/api/trpc/auth.logout`);
    expect(res.status).toBe(405);
  });

  it('carries dates through superjson both ways', async () => {
    const from = new Date('2020-01-01T00:00:00Z');
    const page = await t.client(firm.owner.token).systemLog.list.query({ from });
    expect(page.rows.every((row) => row.at instanceof Date && row.at >= from)).toBe(true);
  });
});

describe('errors', () => {
  it('answers bad input with BAD_REQUEST, a message for a person and the field in fieldErrors', async () => {
    const call = t.client(firm.owner.token).systemLog.list.query({ pageSize: 5000 });
    await expect(call).rejects.toMatchObject({
      message: 'Page size must be at most 200',
      data: {
        code: 'BAD_REQUEST',
        httpStatus: 400,
        fieldErrors: { pageSize: ['Page size must be at most 200'] },
      },
    });
  });

  it('answers FORBIDDEN when the role lacks the permission, UNAUTHORIZED without a session', async () => {
    await expect(t.client(firm.staff.token).systemLog.list.query({})).rejects.toMatchObject({
      data: { code: 'FORBIDDEN', httpStatus: 403 },
    });
    await expect(t.client('garbage').systemLog.list.query({})).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED', httpStatus: 401 },
    });
  });

  it('answers NOT_FOUND for an unknown procedure and never leaks a stack trace', async () => {
    const res = await fetch(`${t.url}/api/trpc/nope.nothing?batch=1&input=%7B%7D`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toMatch(/stack|at .*\.ts:\d+/);
  });

  it('answers malformed JSON input with BAD_REQUEST, not a 500', async () => {
    const res = await fetch(`${t.url}/api/trpc/systemLog.list?batch=1&input=%7Bnot-json`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain('stack');
  });

  it('does not answer a portal procedure to a staff token', async () => {
    await expect(t.client(firm.owner.token).clientPortalProfile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('platform routes', () => {
  it('reports the database in /api/health', async () => {
    const res = await fetch(`${t.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: t.database.engine });
  });

  it('hands the web app its deployment settings at load time, nothing secret', async () => {
    const res = await fetch(`${t.url}/api/config.js`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const config = JSON.parse(text.replace(/^window\.__PRACTICE_CONFIG__=/, '').replace(/;$/, ''));
    expect(config).toMatchObject({
      productionHost: 'app.example.com',
      posthog: { key: 'phc_test' },
      gtmId: 'GTM-AB12',
      idp: { userPoolId: 'local-1_Practice', clientId: 'practiceweb' },
    });
  });

  it('sends security headers with a policy that allows the configured analytics and tag manager', async () => {
    const res = await fetch(`${t.url}/api/health`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(
      /script-src 'self' https:\/\/us\.i\.posthog\.com https:\/\/us-assets\.i\.posthog\.com https:\/\/www\.googletagmanager\.com/,
    );
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers an unknown API path and a missing asset with 404, never the app page', async () => {
    expect((await fetch(`${t.url}/api/nothing`)).status).toBe(404);
    const asset = await fetch(`${t.url}/assets/index-doesnotexist.js`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).not.toContain('text/html');
  });
});

/** A request through Node's own client (stricter about framing than fetch), on `agent`. */
function nodeGet(pathname: string, headers: Record<string, string>, agent?: http.Agent) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get(`${t.url}${pathname}`, { headers, ...(agent ? { agent } : {}) }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        })
        .on('error', reject);
    },
  );
}

describe('on the wire', () => {
  it('answers a streamed (jsonl) batch without compression with one framing, which Node’s client reads', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: superjson.serialize(undefined) }));
    const res = await nodeGet(`/api/trpc/profile.me?batch=1&input=${input}`, {
      authorization: `Bearer ${firm.owner.token}`,
      'trpc-accept': 'application/jsonl',
    });
    expect(res.status).toBe(200);
    expect(
      res.headers['transfer-encoding'] === undefined || res.headers['content-length'] === undefined,
    ).toBe(true);
    // The jsonl stream's lines: its head, then the call's result carrying the signed-in member.
    expect(res.body.trim().split('\n').length).toBeGreaterThan(1);
    expect(res.body).toContain(firm.owner.id);
  });

  it("answers a query sent as POST (the web app's large inputs) as its GET, with a length", async () => {
    const input = { 0: superjson.serialize({ page: 1, pageSize: 10 }) };
    const auth = { authorization: `Bearer ${firm.owner.token}` };
    const get = await fetch(
      `${t.url}/api/trpc/systemLog.list?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
      { headers: auth },
    );
    const post = await fetch(`${t.url}/api/trpc/systemLog.list?batch=1`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(input),
    });
    expect(post.status).toBe(200);
    expect(await post.json()).toEqual(await get.json());
    expect(post.headers.get('content-length')).toMatch(/^\d+$/);
    expect(post.headers.get('transfer-encoding')).toBeNull();
    expect(post.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('answers any other body, a broken one or none with a 4xx, never a 500', async () => {
    const auth = { authorization: `Bearer ${firm.owner.token}` };
    const form = new FormData();
    form.set('name', 'x');
    const sent = [
      { method: 'POST', headers: auth, body: form },
      { method: 'POST', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: 'x' },
      { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' },
      { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"0":' },
      { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '' },
      { method: 'POST', headers: auth },
    ];
    for (const init of sent) {
      const res = await fetch(`${t.url}/api/trpc/clients.create?batch=1`, init);
      expect(res.status, JSON.stringify(init.headers)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(init.headers)).toBeLessThan(500);
    }
  });

  it('answers a request line in absolute form as its origin form', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: superjson.serialize(undefined) }));
    const { port } = new URL(t.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        // Written, not ended: the server closes the connection after its answer (Connection: close).
        socket.write(
          `GET http://127.0.0.1:${port}/api/trpc/profile.me?batch=1&input=${input} HTTP/1.1\r\n` +
            `Host: 127.0.0.1:${port}\r\nAuthorization: Bearer ${firm.owner.token}\r\nConnection: close\r\n\r\n`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain(firm.owner.id);
  });

  it('closes the connection it answers 431 on, saying so, so a pooled connection is not used again', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tooLarge = await nodeGet('/api/health', { 'x-filler': 'x'.repeat(20_000) }, agent);
      // At once, on the same agent: it must not pick the connection the server has closed.
      const next = await nodeGet('/api/health', {}, agent);
      expect(next.status).toBe(200);
      expect(tooLarge.status).toBe(431);
      expect(tooLarge.headers.connection).toBe('close');
    } finally {
      agent.destroy();
    }
  });
});
