import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientUserClients, clientUsers } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedPortalUser } from '../../test/portal';
import { clientRecipients } from './delivery';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function seedClient(orgId: string, name: string, email: string | null) {
  const [row] = await t.db
    .insert(clients)
    .values({ orgId, name, email, code: `C${Math.random().toString().slice(2, 8)}` })
    .returning();
  if (!row) throw new Error('client not created');
  return row;
}

describe('clientRecipients', () => {
  it('reaches the client and its active portal users once each, never a disabled, invited or other client’s user', async () => {
    const firm = await t.seedFirm();
    const other = await t.seedFirm();
    const client = await seedClient(firm.org.id, 'Mehta Traders', 'Accounts@Mehta.test');
    const sibling = await seedClient(firm.org.id, 'Sibling Ltd', null);
    const elsewhere = await seedClient(other.org.id, 'Elsewhere', null);

    // The same address as the client's own, in another case: reached once.
    await seedPortalUser(t, { orgId: firm.org.id, clientIds: [client.id], email: 'accounts@mehta.test' });
    await seedPortalUser(t, {
      orgId: firm.org.id,
      clientIds: [client.id, sibling.id],
      email: 'ravi@mehta.test',
    });
    await seedPortalUser(t, {
      orgId: firm.org.id,
      clientIds: [sibling.id],
      email: 'only-sibling@mehta.test',
    });
    await seedPortalUser(t, {
      orgId: other.org.id,
      clientIds: [elsewhere.id],
      email: 'other-firm@mehta.test',
    });
    for (const status of ['disabled', 'invited'] as const) {
      const [user] = await t.db
        .insert(clientUsers)
        .values({ orgId: firm.org.id, email: `${status}@mehta.test`, name: status, status })
        .returning();
      if (!user) throw new Error('user not created');
      await t.db
        .insert(clientUserClients)
        .values({ orgId: firm.org.id, clientUserId: user.id, clientId: client.id });
    }

    const result = await clientRecipients(t.db, firm.org.id, client.id);
    expect(result.name).toBe('Mehta Traders');
    expect(result.emails).toEqual(['Accounts@Mehta.test', 'ravi@mehta.test']);

    // A client without an email of its own still reaches its portal users.
    expect((await clientRecipients(t.db, firm.org.id, sibling.id)).emails.sort()).toEqual([
      'only-sibling@mehta.test',
      'ravi@mehta.test',
    ]);
    // Another firm's client answers nothing.
    expect(await clientRecipients(t.db, firm.org.id, elsewhere.id)).toEqual({ name: null, emails: [] });
  });
});
