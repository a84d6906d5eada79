import { TRPCError } from '@trpc/server';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TDb } from '../db/client';
import type { TStaffAuth, TStaffIdentity } from '../idp/staff-auth';
import { registerRouteAuth, routeStaffScope } from './http';

const member = (over: Partial<NonNullable<TStaffIdentity['member']>> = {}): TStaffIdentity => ({
  sub: 's',
  username: 'u',
  accessToken: 't',
  originJti: null,
  member: {
    memberId: 'm1',
    orgId: 'o1',
    isOwner: false,
    status: 'active',
    permissions: ['documents.view'],
    assignedClientsOnly: false,
    mfaOverdue: false,
    ...over,
  },
});

async function appWith(identity: TStaffIdentity | null) {
  const app = Fastify();
  const staffAuth = { resolve: async () => identity } as unknown as TStaffAuth;
  registerRouteAuth(app, { db: {} as TDb, staffAuth, secureCookies: false, linkMac: async (d) => d });
  app.get('/api/open', { config: { auth: 'public' } }, async () => ({ ok: true }));
  app.get('/api/files', { config: { auth: { staff: 'documents.view' } } }, async (req) =>
    routeStaffScope(req),
  );
  app.get('/api/secret', { config: { auth: { staff: 'vault.reveal' } } }, async () => ({ ok: true }));
  app.get('/api/missing', { config: { auth: 'public' } }, async () => {
    throw new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });
  });
  app.get('/api/broken', { config: { auth: 'public' } }, async () => {
    throw new Error('relation "x" does not exist');
  });
  return app;
}

describe('the door for routes that are not tRPC', () => {
  it('refuses to start with an /api/ route that does not say who may call it', async () => {
    const app = Fastify();
    registerRouteAuth(app, {
      db: {} as TDb,
      staffAuth: {} as TStaffAuth,
      secureCookies: false,
      linkMac: async (d) => d,
    });
    expect(() => app.get('/api/forgot', async () => 'x')).toThrow(/must declare config.auth/);
    // Procedures and the identity provider answer for themselves; pages are not the API.
    expect(() => app.get('/api/trpc/:path', async () => 'x')).not.toThrow();
    expect(() => app.get('/about', async () => 'x')).not.toThrow();
  });

  it('answers as a staff procedure would: 401, 412, 403, then the scope', async () => {
    const noOne = await appWith(null);
    const r401 = await noOne.inject('/api/files');
    expect([r401.statusCode, r401.json()]).toEqual([
      401,
      { error: 'UNAUTHORIZED', message: 'Please sign in to continue' },
    ]);
    expect((await noOne.inject('/api/open')).json()).toEqual({ ok: true });

    const noFirm = await appWith({ ...member(), member: null });
    expect((await noFirm.inject('/api/files')).statusCode).toBe(412);
    const disabled = await appWith(member({ status: 'disabled' }));
    expect((await disabled.inject('/api/files')).json().message).toBe(
      'Your access to this firm has been turned off',
    );

    const limited = await appWith(member({ assignedClientsOnly: true }));
    expect((await limited.inject('/api/secret')).statusCode).toBe(403);
    expect((await limited.inject('/api/files')).json()).toMatchObject({
      orgId: 'o1',
      memberId: 'm1',
      assignedClientsOnly: true,
    });
    // "Assigned clients only" is decided once: clients.all lifts it.
    const all = await appWith(
      member({ assignedClientsOnly: true, permissions: ['documents.view', 'clients.all'] }),
    );
    expect((await all.inject('/api/files')).json().assignedClientsOnly).toBe(false);
  });

  it("maps a handler's TRPCError to its status and never shows an internal cause", async () => {
    const app = await appWith(null);
    const missing = await app.inject('/api/missing');
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'NOT_FOUND']);
    const broken = await app.inject('/api/broken');
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toContain('relation');
  });
});
