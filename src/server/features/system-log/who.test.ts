import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../db/schema';
import { createIdpTestApp, idpCall } from '../../idp/test-helpers';
import { signedUpUser } from '../../test/idp-user';
import { seedPortalUser } from '../../test/portal';

// Issue 17, item 6: the system log says who. Staff sign-ins are logged (one row per firm the person
// is an active member of); a portal action names the person and the client.

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

const signIn = (email: string, userAgent: string) =>
  idpCall(
    t.endpoint,
    'InitiateAuth',
    {
      ClientId: t.config.idp.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: 'Ledger#2026' },
    },
    { 'user-agent': userAgent },
  );

describe('staff sign-in', () => {
  it('writes member.sign_in with the member, address and user agent, in each firm they are active in', async () => {
    const idp = { endpoint: t.endpoint, clientId: t.config.idp.clientId, outboxDir: t.outboxDir };
    const first = await signedUpUser(idp, { email: 'nia@signin.test' });
    const user = await idpCall(t.endpoint, 'GetUser', { AccessToken: first.AccessToken });
    const attributes = user.body.UserAttributes as { Name: string; Value: string }[];
    const sub = attributes.find((a) => a.Name === 'sub')?.Value ?? '';
    // The sign-up's own sign-in came before any membership: nothing to log, nowhere to log it.
    const sure = await t.ownerWithSub(sub);
    const other = await t.ownerWithSub(sub);
    const res = await signIn('nia@signin.test', 'SignInTest/1.0');
    expect(res.status).toBe(200);

    for (const firm of [sure, other]) {
      // Read by a second member with the owner's role (the owner's token was minted for another sub).
      await t.db.update(members).set({ roleId: firm.roles.owner.id }).where(eq(members.id, firm.staff.id));
      const log = await t.client(firm.staff.token).systemLog.list.query({ action: 'member.sign_in' });
      expect(log.rows).toHaveLength(1);
      expect(log.rows[0]).toMatchObject({
        actorKind: 'member',
        actorMemberId: firm.owner.id,
        actorName: 'Olivia Owner',
        actorClientName: null,
        recordType: 'member',
        recordId: firm.owner.id,
        userAgent: 'SignInTest/1.0',
      });
      expect(log.rows[0]?.ip).toBeTruthy();
      expect(log.rows[0]?.summary).toContain('signed in');
    }
    // A refresh is not a sign-in.
    await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: t.config.idp.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: first.RefreshToken },
    });
    const after = await t.client(sure.staff.token).systemLog.list.query({ action: 'member.sign_in' });
    expect(after.total).toBe(1);
  });
});

describe('portal actions', () => {
  it('name the client user and the client in the list and the CSV export', async () => {
    const firm = await t.seedFirm('Who & Co');
    const api = t.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'WHO1', name: 'Mehta Traders' });
    const task = await api.tasks.create.mutate({
      title: 'Send the bank statements',
      clientId: client.id,
      forClient: true,
      assigneeIds: [firm.owner.id],
    });
    const portal = await seedPortalUser(t, {
      orgId: firm.org.id,
      clientIds: [client.id],
      name: 'Priya Mehta',
    });
    await portal.client.clientPortalTasks.complete.mutate({ clientId: client.id, taskId: task.id });

    const log = await api.systemLog.list.query({ action: 'task.status' });
    const row = log.rows.find((r) => r.actorKind === 'client_user');
    expect(row).toMatchObject({
      actorClientUserId: portal.user.id,
      actorName: 'Priya Mehta',
      actorClientName: 'Mehta Traders',
      recordId: task.id,
    });

    const res = await fetch(`${t.url}/api/systemlog/export.csv?action=task.status`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Priya Mehta (Mehta Traders),client_user,task.status');
  });
});
