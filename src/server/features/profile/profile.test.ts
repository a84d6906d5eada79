import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgs } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('profile.me', () => {
  it('answers the signed-in member with org, role and owner flag', async () => {
    const firm = await t.seedFirm('Acme & Co');
    await t.db.update(orgs).set({ fiscalYearStartMonth: 4 }).where(eq(orgs.id, firm.org.id));
    const me = await t.client(firm.owner.token).profile.me.query();
    expect(me).toMatchObject({
      id: firm.owner.id,
      fullName: 'Olivia Owner',
      email: firm.owner.email,
      isOwner: true,
      // What the screens format dates and amounts by, and the fiscal year a statement opens on.
      org: {
        id: firm.org.id,
        name: 'Acme & Co',
        country: null,
        timeZone: 'UTC',
        currency: 'USD',
        fiscalYearStartMonth: 4,
      },
      role: { name: 'Owner' },
    });
  });

  it('refuses a call without a token with UNAUTHORIZED', async () => {
    await expect(t.client().profile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED', httpStatus: 401 },
    });
  });
});
