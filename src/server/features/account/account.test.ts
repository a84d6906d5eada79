import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles } from '../../test/role-members';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const edit = {
  firstName: 'Sam',
  lastName: 'Iyer',
  phone: '+91 98765 43210',
  picture: 'https://cdn.example/sam.png',
};

describe('account', () => {
  it('updates the caller’s own name, phone and picture, audited with the changes', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.staff.token);
    expect(await api.account.get.query()).toMatchObject({ firstName: 'Sam', lastName: 'Staff', phone: null });
    const { account } = await api.account.updateProfile.mutate(edit);
    expect(account).toMatchObject(edit);
    expect(await api.profile.me.query()).toMatchObject({ fullName: 'Sam Iyer', picture: edit.picture });
    // The owner is untouched.
    expect(await t.client(firm.owner.token).account.get.query()).toMatchObject({ lastName: 'Owner' });

    const [row] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'member.profile.update')));
    expect(row).toMatchObject({
      actorMemberId: firm.staff.id,
      recordType: 'member',
      recordId: firm.staff.id,
    });
    expect(row?.changes).toEqual({
      lastName: { from: 'Staff', to: 'Iyer' },
      phone: { from: null, to: edit.phone },
      picture: { from: null, to: edit.picture },
    });

    // Blank phone and picture clear them.
    expect(
      (await api.account.updateProfile.mutate({ ...edit, phone: '', picture: '' })).account,
    ).toMatchObject({
      phone: null,
      picture: null,
    });
  });

  it('refuses bad input with the field named', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.owner.token);
    await expect(
      api.account.updateProfile.mutate({ ...edit, picture: 'javascript:alert(1)' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Enter an https:// address of an image'),
    });
    await expect(api.account.updateProfile.mutate({ ...edit, firstName: ' ' })).rejects.toMatchObject({
      message: expect.stringContaining('First name is required'),
    });
    await expect(api.account.updateProfile.mutate({ ...edit, phone: 'call me' })).rejects.toMatchObject({
      message: expect.stringContaining('Enter a phone number'),
    });
  });

  it('is open to every seeded role, and to no one signed out', async () => {
    const firm = await t.seedFirm();
    for (const person of await membersForSeededRoles(t, firm)) {
      const api = t.client(person.token);
      await expect(api.account.get.query()).resolves.toMatchObject({ email: person.email });
      await expect(
        api.account.updateProfile.mutate({
          firstName: person.role,
          lastName: 'Edited',
          phone: '',
          picture: '',
        }),
      ).resolves.toMatchObject({ changed: true });
    }
    await expect(t.client().account.get.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });
});
