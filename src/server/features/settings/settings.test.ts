import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '../../../domain/settings';
import { orgs, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles } from '../../test/role-members';
import { sniffImage } from './logo';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

// A real 1×1 PNG, and the first bytes of a JPEG and a WebP (type detection reads only the header).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(40),
]);
const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);
const b64 = (b: Buffer) => b.toString('base64');

const profile = {
  name: 'Rao & Partners',
  legalName: 'Rao and Partners LLP',
  addressLine1: '12 MG Road',
  addressLine2: '',
  city: 'Bengaluru',
  region: 'Karnataka',
  postalCode: '560001',
  country: 'IN',
  timeZone: 'Asia/Kolkata',
  currency: 'INR',
  fiscalYearStartMonth: 4,
  taxIds: [
    { kind: 'PAN', value: 'AAAFR1234C' },
    { kind: 'GSTIN', value: '29AAAFR1234C1Z5' },
  ],
};

describe('settings.get and settings.update', () => {
  it('saves the firm profile and writes one audit row with before → after', async () => {
    const firm = await t.seedFirm('Rao');
    const api = t.client(firm.owner.token);
    const before = await api.settings.get.query();
    expect(before).toMatchObject({
      id: firm.org.id,
      name: 'Rao',
      timeZone: 'UTC',
      taxIds: [],
      logoUrl: null,
    });

    const saved = await api.settings.update.mutate(profile);
    expect(saved.changed).toBe(true);
    expect(saved.settings).toMatchObject({ ...profile, addressLine2: null });
    expect(await api.settings.get.query()).toMatchObject({ name: 'Rao & Partners', country: 'IN' });

    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'org.update')));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actorMemberId: firm.owner.id, recordType: 'org', recordId: firm.org.id });
    expect(log[0]?.changes).toMatchObject({
      name: { from: 'Rao', to: 'Rao & Partners' },
      timeZone: { from: 'UTC', to: 'Asia/Kolkata' },
      taxIds: { from: [], to: profile.taxIds },
    });
    expect(log[0]?.changes).not.toHaveProperty('addressLine2');

    // Saving the same values again changes nothing and logs nothing.
    expect((await api.settings.update.mutate(profile)).changed).toBe(false);
    const again = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'org.update')));
    expect(again).toHaveLength(1);
  });

  it('refuses bad input with messages a person can act on', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.owner.token);
    await expect(
      api.settings.update.mutate({ ...profile, taxIds: [{ kind: 'EIN', value: '12-3456789' }] }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Choose one of PAN, TAN, GSTIN'),
    });
    await expect(api.settings.update.mutate({ ...profile, timeZone: 'Mars/Olympus' })).rejects.toMatchObject({
      message: expect.stringContaining('Choose a valid time zone'),
    });
    await expect(
      api.settings.update.mutate({
        ...profile,
        taxIds: [
          { kind: 'PAN', value: 'AAAFR1234C' },
          { kind: 'PAN', value: 'aaafr1234c' },
        ],
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('This identifier is listed twice'),
    });
    // A country without a known list takes any kind.
    await expect(
      api.settings.update.mutate({
        ...profile,
        country: 'SG',
        taxIds: [{ kind: 'UEN', value: '201912345K' }],
      }),
    ).resolves.toMatchObject({ changed: true });
  });
});

describe('logo', () => {
  it('detects the type from the bytes, not the name', () => {
    expect(sniffImage(PNG)).toEqual({ ok: true, contentType: 'image/png' });
    expect(sniffImage(JPEG)).toEqual({ ok: true, contentType: 'image/jpeg' });
    expect(sniffImage(WEBP)).toEqual({ ok: true, contentType: 'image/webp' });
    expect(sniffImage(SVG)).toEqual({ ok: false, reason: 'svg' });
    expect(sniffImage(Buffer.from('\uFEFF  <svg></svg>'))).toEqual({ ok: false, reason: 'svg' });
    expect(sniffImage(Buffer.from('GIF89a'))).toEqual({ ok: false, reason: 'unknown' });
  });

  it('uploads, serves the bytes with the right headers, and changes the URL on each upload', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.owner.token);
    const { logoUrl } = await api.settings.uploadLogo.mutate({ dataBase64: b64(PNG) });
    expect(logoUrl).toBe(`/api/orgs/${firm.org.id}/logo?v=1`);
    expect((await api.settings.get.query()).logoUrl).toBe(logoUrl);

    const res = await fetch(`${t.url}${logoUrl}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);

    const second = await api.settings.uploadLogo.mutate({ dataBase64: b64(WEBP) });
    expect(second.logoUrl).toBe(`/api/orgs/${firm.org.id}/logo?v=2`);
    const webp = await fetch(`${t.url}${second.logoUrl}`);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    // An old URL gets the current image, revalidated rather than cached for a year.
    const stale = await fetch(`${t.url}${logoUrl}`);
    expect(stale.headers.get('content-type')).toBe('image/webp');
    expect(stale.headers.get('cache-control')).toBe('no-cache');

    const log = await t.db
      .select({ action: systemLog.action, changes: systemLog.changes })
      .from(systemLog)
      .where(eq(systemLog.orgId, firm.org.id));
    expect(log.filter((l) => l.action === 'org.logo.update')).toHaveLength(2);

    await api.settings.removeLogo.mutate();
    expect((await api.settings.get.query()).logoUrl).toBeNull();
    expect((await fetch(`${t.url}${logoUrl}`)).status).toBe(404);
  });

  it('refuses SVG, unknown types and anything over 512 KB, storing nothing', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.owner.token);
    await expect(api.settings.uploadLogo.mutate({ dataBase64: b64(SVG) })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('SVG logos are not accepted'),
    });
    await expect(
      api.settings.uploadLogo.mutate({ dataBase64: b64(Buffer.from('<html>hi</html>')) }),
    ).rejects.toMatchObject({
      message: 'This file is not a PNG, JPEG or WebP image',
    });
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES + 1 - PNG.length)]);
    await expect(api.settings.uploadLogo.mutate({ dataBase64: b64(big) })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('The logo must be at most 512 KB'),
    });
    const justRight = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES - PNG.length)]);
    await expect(api.settings.uploadLogo.mutate({ dataBase64: b64(justRight) })).resolves.toMatchObject({
      logoUrl: expect.stringContaining('?v=1'),
    });
    const [org] = await t.db.select({ v: orgs.logoVersion }).from(orgs).where(eq(orgs.id, firm.org.id));
    expect(org?.v).toBe(1);
  });

  it('answers 404 for a firm without a logo and for an id that is not one', async () => {
    const firm = await t.seedFirm();
    expect((await fetch(`${t.url}/api/orgs/${firm.org.id}/logo?v=1`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/orgs/not-an-id/logo`)).status).toBe(404);
  });
});

describe('permissions', () => {
  // Each seeded role × each settings procedure: allowed, or FORBIDDEN.
  const expected: Record<string, { view: boolean; edit: boolean }> = {
    Owner: { view: true, edit: true },
    Admin: { view: true, edit: true },
    Manager: { view: false, edit: false },
    Staff: { view: false, edit: false },
  };

  it('follows the matrix for every seeded role', async () => {
    const firm = await t.seedFirm('Matrix');
    const people = await membersForSeededRoles(t, firm);
    expect(people.map((p) => p.role)).toEqual(['Owner', 'Admin', 'Manager', 'Staff']);
    for (const person of people) {
      const api = t.client(person.token);
      const rights = expected[person.role];
      const calls = {
        'settings.get': [rights?.view, () => api.settings.get.query()],
        'settings.update': [
          rights?.edit,
          () => api.settings.update.mutate({ ...profile, name: `Matrix ${person.role}` }),
        ],
        'settings.uploadLogo': [rights?.edit, () => api.settings.uploadLogo.mutate({ dataBase64: b64(PNG) })],
        'settings.removeLogo': [rights?.edit, () => api.settings.removeLogo.mutate()],
      } as const;
      for (const [name, [allowed, call]] of Object.entries(calls)) {
        const outcome = await call().then(
          () => 'allowed',
          (e: { data?: { code?: string } }) => e.data?.code,
        );
        expect({ role: person.role, name, outcome }).toEqual({
          role: person.role,
          name,
          outcome: allowed ? 'allowed' : 'FORBIDDEN',
        });
      }
    }
  });

  it('refuses a caller without a sign-in', async () => {
    await expect(t.client().settings.get.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });
});

describe('cross-org', () => {
  it('reads and writes only the caller’s own firm', async () => {
    const a = await t.seedFirm('Firm A');
    const b = await t.seedFirm('Firm B');
    const apiA = t.client(a.owner.token);
    const apiB = t.client(b.owner.token);
    expect((await apiA.settings.get.query()).id).toBe(a.org.id);
    expect((await apiB.settings.get.query()).id).toBe(b.org.id);

    await apiA.settings.update.mutate({ ...profile, name: 'A renamed' });
    await apiA.settings.uploadLogo.mutate({ dataBase64: b64(PNG) });
    expect(await apiB.settings.get.query()).toMatchObject({ name: 'Firm B', logoUrl: null, taxIds: [] });
    // B's logo URL does not exist, whatever A uploaded.
    expect((await fetch(`${t.url}/api/orgs/${b.org.id}/logo?v=1`)).status).toBe(404);
    // A's audit rows are in A's log only.
    expect((await apiB.systemLog.list.query({ recordType: 'org' })).rows).toEqual([]);
    expect((await apiA.systemLog.list.query({ recordType: 'org' })).rows.map((r) => r.recordId)).toEqual([
      a.org.id,
      a.org.id,
    ]);
    // A's staff (no settings rights) is refused before anything is read.
    await expect(t.client(a.staff.token).settings.get.query()).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
  });
});
