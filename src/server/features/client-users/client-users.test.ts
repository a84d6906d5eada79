import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPortalSession } from '../../auth';
import { clients, clientTeam, clientUserInvites, clientUsers, roles, systemLog } from '../../db/schema';
import { createIdpTestApp } from '../../idp/test-helpers';
import { portalClient, seedPortalUser } from '../../test/portal';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

async function firmWithClients(name: string) {
  const firm = await t.seedFirm(name);
  const made = await t.db
    .insert(clients)
    .values([
      { orgId: firm.org.id, code: 'A1', name: `${name} Alpha Ltd` },
      { orgId: firm.org.id, code: 'B1', name: `${name} Beta Ltd` },
    ])
    .returning();
  const [alpha, beta] = made;
  if (!alpha || !beta) throw new Error('clients not created');
  return { ...firm, alpha, beta, owner: { ...firm.owner, api: t.client(firm.owner.token) } };
}

/** The newest mail to an address, once there are `count` of them (waits for them, not for a time). */
function lastMail(to: string, count = 1) {
  return vi.waitFor(
    async () => {
      const mine = (await t.readOutbox()).filter((m) => m.to === to);
      if (mine.length < count) throw new Error(`${mine.length} of ${count} mails to ${to} so far`);
      return mine[mine.length - 1];
    },
    { timeout: 10_000, interval: 20 },
  );
}

const auditRows = (orgId: string, action: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), eq(systemLog.action, action)));

describe('inviting a client user', () => {
  it('creates an invited user with an open invitation, mails the link, and lists them', async () => {
    const f = await firmWithClients('Invitee');
    const result = await f.owner.api.clientUsers.invite.mutate({
      clientId: f.alpha.id,
      email: '  Rhea@Example.TEST ',
      name: 'Rhea Shah',
      phone: '+44 20 7946 0000',
    });
    expect(result).toMatchObject({ email: 'rhea@example.test', outcome: 'invite' });
    const mail = await lastMail('rhea@example.test');
    expect(mail?.subject).toBe('Invitee invited you to their client portal');
    expect(mail?.notes.link).toMatch(
      /^http:\/\/127\.0\.0\.1\/clientportal\/auth\/invite\/[A-Za-z0-9_-]{43}$/,
    );
    expect(mail?.text).toContain('Invitee Alpha Ltd');

    const page = await f.owner.api.clientUsers.list.query({ clientId: f.alpha.id });
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({
      name: 'Rhea Shah',
      email: 'rhea@example.test',
      phone: '+44 20 7946 0000',
      status: 'invited',
      lastSignInAt: null,
      invite: { expired: false },
    });
    const days = ((page.rows[0]?.invite?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // The other client of the firm has nobody yet.
    expect((await f.owner.api.clientUsers.list.query({ clientId: f.beta.id })).total).toBe(0);
    const [row] = await auditRows(f.org.id, 'client_user.invite');
    expect(row).toMatchObject({ actorKind: 'member', actorMemberId: f.owner.id, recordType: 'client_user' });
  });

  it('renews the open invitation when invited again (the old link stops working)', async () => {
    const f = await firmWithClients('Renew');
    const input = { clientId: f.alpha.id, email: 'twice@example.test', name: 'Twice', phone: '' };
    await f.owner.api.clientUsers.invite.mutate(input);
    const first = (await lastMail('twice@example.test'))?.notes.link?.split('/invite/')[1] ?? '';
    await f.owner.api.clientUsers.invite.mutate({ ...input, name: 'Twice Renamed' });
    const second = (await lastMail('twice@example.test', 2))?.notes.link?.split('/invite/')[1] ?? '';
    expect(second).not.toBe(first);
    const anon = portalClient(t);
    await expect(anon.clientPortalAuth.invite.query({ key: first })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect(await anon.clientPortalAuth.invite.query({ key: second })).toMatchObject({
      state: 'open',
      name: 'Twice Renamed',
    });
    expect(await auditRows(f.org.id, 'client_user.invite_renew')).toHaveLength(1);
  });

  it('links an active user of the firm to another client at once, with a short note', async () => {
    const f = await firmWithClients('Group');
    const { user, client: portal } = await seedPortalUser(t, {
      orgId: f.org.id,
      clientIds: [f.alpha.id],
      email: 'director@example.test',
      name: 'Dee Director',
    });
    const result = await f.owner.api.clientUsers.invite.mutate({
      clientId: f.beta.id,
      email: 'director@example.test',
      name: 'ignored',
      phone: '',
    });
    expect(result).toMatchObject({ id: user.id, outcome: 'access' });
    expect((await lastMail('director@example.test'))?.subject).toBe('You now have access to Group Beta Ltd');
    const me = await portal.clientPortalProfile.me.query();
    expect(me.clients.map((c) => c.name)).toEqual(['Group Alpha Ltd', 'Group Beta Ltd']);
    expect(await auditRows(f.org.id, 'client_user.link')).toHaveLength(1);
    // Twice is refused with a message a person can act on.
    await expect(
      f.owner.api.clientUsers.invite.mutate({
        clientId: f.beta.id,
        email: 'director@example.test',
        name: 'x',
        phone: '',
      }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'Dee Director already has access to Group Beta Ltd',
    });
  });

  it('three invitations of one person at once leave one person and one open invitation', async () => {
    const f = await firmWithClients('Race');
    const input = { clientId: f.alpha.id, email: 'race@example.test', name: 'Race', phone: '' };
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => f.owner.api.clientUsers.invite.mutate(input)),
    );
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ data: { code: 'CONFLICT' } });
    }
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    const people = await t.db.select().from(clientUsers).where(eq(clientUsers.email, 'race@example.test'));
    expect(people).toHaveLength(1);
    const open = await t.db
      .select()
      .from(clientUserInvites)
      .where(
        and(eq(clientUserInvites.clientUserId, people[0]?.id ?? ''), isNull(clientUserInvites.revokedAt)),
      );
    expect(open).toHaveLength(1);
  });

  it('refuses bad input with clear messages and changes nothing', async () => {
    const f = await firmWithClients('Bad');
    await expect(
      f.owner.api.clientUsers.invite.mutate({ clientId: f.alpha.id, email: 'nope', name: '', phone: 'abc' }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    expect((await f.owner.api.clientUsers.list.query({ clientId: f.alpha.id })).total).toBe(0);
    await t.db.update(clients).set({ archivedAt: new Date() }).where(eq(clients.id, f.beta.id));
    await expect(
      f.owner.api.clientUsers.invite.mutate({
        clientId: f.beta.id,
        email: 'a@example.test',
        name: 'A',
        phone: '',
      }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'Bad Beta Ltd is archived: restore it before inviting anyone to its portal.',
    });
  });
});

describe('resend, remove, disable and enable', () => {
  it('resends a new link; refuses for someone already in', async () => {
    const f = await firmWithClients('Resend');
    const { id } = await f.owner.api.clientUsers.invite.mutate({
      clientId: f.alpha.id,
      email: 'resend@example.test',
      name: 'Re Send',
      phone: '',
    });
    const before = (await lastMail('resend@example.test'))?.notes.link;
    await f.owner.api.clientUsers.resendInvite.mutate({ clientId: f.alpha.id, clientUserId: id });
    const after = (await lastMail('resend@example.test', 2))?.notes.link;
    expect(after).not.toBe(before);
    expect(await auditRows(f.org.id, 'client_user.invite_resend')).toHaveLength(1);

    const active = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id] });
    await expect(
      f.owner.api.clientUsers.resendInvite.mutate({ clientId: f.alpha.id, clientUserId: active.user.id }),
    ).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
  });

  it('removing the last client revokes the invitation and ends the sessions; one of two keeps them', async () => {
    const f = await firmWithClients('Remove');
    const both = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id, f.beta.id] });
    await f.owner.api.clientUsers.remove.mutate({ clientId: f.alpha.id, clientUserId: both.user.id });
    const me = await both.client.clientPortalProfile.me.query();
    expect(me.clients.map((c) => c.id)).toEqual([f.beta.id]);
    // No longer linked to Alpha: the same call again finds nobody.
    await expect(
      f.owner.api.clientUsers.remove.mutate({ clientId: f.alpha.id, clientUserId: both.user.id }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    await f.owner.api.clientUsers.remove.mutate({ clientId: f.beta.id, clientUserId: both.user.id });
    await expect(both.client.clientPortalProfile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });

    const { id } = await f.owner.api.clientUsers.invite.mutate({
      clientId: f.alpha.id,
      email: 'gone@example.test',
      name: 'Gone',
      phone: '',
    });
    const key = (await lastMail('gone@example.test'))?.notes.link?.split('/invite/')[1] ?? '';
    await f.owner.api.clientUsers.remove.mutate({ clientId: f.alpha.id, clientUserId: id });
    expect(await portalClient(t).clientPortalAuth.invite.query({ key })).toMatchObject({
      state: 'revoked',
      message: 'This invitation was withdrawn by Remove. Ask them if you still need access.',
    });
    expect(await auditRows(f.org.id, 'client_user.remove')).toHaveLength(3);
  });

  it('disabling ends every session of the person at once; enabling brings them back', async () => {
    const f = await firmWithClients('Disable');
    const p = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id] });
    const { token: second } = await createPortalSession(t.db, { email: p.user.email });
    await f.owner.api.clientUsers.disable.mutate({ clientId: f.alpha.id, clientUserId: p.user.id });
    for (const api of [p.client, portalClient(t, second)]) {
      await expect(api.clientPortalProfile.me.query()).rejects.toMatchObject({
        data: { code: 'UNAUTHORIZED' },
      });
    }
    const [row] = (await f.owner.api.clientUsers.list.query({ clientId: f.alpha.id })).rows;
    expect(row?.status).toBe('disabled');
    await expect(
      f.owner.api.clientUsers.invite.mutate({
        clientId: f.beta.id,
        email: p.user.email,
        name: 'x',
        phone: '',
      }),
    ).rejects.toMatchObject({ data: { code: 'CONFLICT' } });

    // Never signed in and no accepted invitation: enabling leaves them invited.
    await f.owner.api.clientUsers.enable.mutate({ clientId: f.alpha.id, clientUserId: p.user.id });
    const [after] = await t.db.select().from(clientUsers).where(eq(clientUsers.id, p.user.id));
    expect(after?.status).toBe('invited');
    const [disabled] = await auditRows(f.org.id, 'client_user.disable');
    expect(disabled?.changes).toEqual({ status: { from: 'active', to: 'disabled' } });
    expect(await auditRows(f.org.id, 'client_user.enable')).toHaveLength(1);
  });
});

describe('permissions', () => {
  it('viewing needs clients.view, changing needs clients.edit', async () => {
    const f = await firmWithClients('Perm');
    const staff = t.client(f.staff.token); // Staff: clients.view only
    expect((await staff.clientUsers.list.query({ clientId: f.alpha.id })).total).toBe(0);
    await expect(
      staff.clientUsers.invite.mutate({
        clientId: f.alpha.id,
        email: 'x@example.test',
        name: 'X',
        phone: '',
      }),
    ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    await t.db.update(roles).set({ permissions: [] }).where(eq(roles.id, f.roles.staff.id));
    await expect(staff.clientUsers.list.query({ clientId: f.alpha.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const anon = t.client();
    await expect(anon.clientUsers.list.query({ clientId: f.alpha.id })).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });

  it('a role limited to assigned clients sees only those', async () => {
    const f = await firmWithClients('Assigned');
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'clients.edit'], assignedClientsOnly: true })
      .where(eq(roles.id, f.roles.staff.id));
    await t.db.insert(clientTeam).values({ orgId: f.org.id, clientId: f.alpha.id, memberId: f.staff.id });
    const staff = t.client(f.staff.token);
    expect((await staff.clientUsers.list.query({ clientId: f.alpha.id })).total).toBe(0);
    await expect(staff.clientUsers.list.query({ clientId: f.beta.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(
      staff.clientUsers.invite.mutate({ clientId: f.beta.id, email: 'y@example.test', name: 'Y', phone: '' }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('a portal session cannot call the staff procedures', async () => {
    const f = await firmWithClients('PortalCaller');
    const p = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.alpha.id] });
    await expect(p.client.clientUsers.list.query({ clientId: f.alpha.id })).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('cross-org', () => {
  it("another firm's client or client user answers NOT_FOUND and changes nothing", async () => {
    const mine = await firmWithClients('Mine');
    const theirs = await firmWithClients('Theirs');
    const theirUser = await seedPortalUser(t, { orgId: theirs.org.id, clientIds: [theirs.alpha.id] });
    const api = mine.owner.api;
    await expect(api.clientUsers.list.query({ clientId: theirs.alpha.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(
      api.clientUsers.invite.mutate({
        clientId: theirs.alpha.id,
        email: 'z@example.test',
        name: 'Z',
        phone: '',
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    for (const call of [
      () => api.clientUsers.disable.mutate({ clientId: theirs.alpha.id, clientUserId: theirUser.user.id }),
      () => api.clientUsers.disable.mutate({ clientId: mine.alpha.id, clientUserId: theirUser.user.id }),
      () => api.clientUsers.remove.mutate({ clientId: mine.alpha.id, clientUserId: theirUser.user.id }),
      () => api.clientUsers.resendInvite.mutate({ clientId: mine.alpha.id, clientUserId: theirUser.user.id }),
      () => api.clientUsers.enable.mutate({ clientId: mine.alpha.id, clientUserId: theirUser.user.id }),
    ]) {
      await expect(call()).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
    expect((await theirUser.client.clientPortalProfile.me.query()).clients).toHaveLength(1);
    const invites = await t.db
      .select()
      .from(clientUserInvites)
      .where(eq(clientUserInvites.orgId, theirs.org.id));
    expect(invites).toHaveLength(0);
    // The same email in two firms is two client users: inviting it here does not touch theirs.
    await api.clientUsers.invite.mutate({
      clientId: mine.alpha.id,
      email: theirUser.user.email,
      name: 'Same Person',
      phone: '',
    });
    const rows = await t.db.select().from(clientUsers).where(eq(clientUsers.email, theirUser.user.email));
    expect(rows.map((r) => [r.orgId === mine.org.id, r.status]).sort()).toEqual([
      [false, 'active'],
      [true, 'invited'],
    ]);
  });
});
