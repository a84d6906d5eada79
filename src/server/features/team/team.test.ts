import { randomUUID } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEEDED_ROLES } from '../../../domain/permissions';
import { SIGN_UP_INVITE_KEY } from '../../../domain/team';
import { idpUsers, memberInvites, members, orgs, roles, systemLog } from '../../db/schema';
import { createIdpTestApp } from '../../idp/test-helpers';
import { signedUpUser } from '../../test/idp-user';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

type TRoleName = 'Owner' | 'Admin' | 'Manager' | 'Staff';

/** A firm as onboarding makes it (the four seeded roles), with one active member per role. */
async function seededFirm(name: string) {
  const [org] = await t.db.insert(orgs).values({ name }).returning();
  if (!org) throw new Error('org not created');
  const created = await t.db
    .insert(roles)
    .values(SEEDED_ROLES.map((r) => ({ orgId: org.id, ...r, permissions: [...r.permissions] })))
    .returning();
  const role = (n: TRoleName) => {
    const found = created.find((r) => r.name === n);
    if (!found) throw new Error(`no role ${n}`);
    return found;
  };
  const person = async (roleName: TRoleName, firstName: string) => {
    const sub = randomUUID();
    const [m] = await t.db
      .insert(members)
      .values({
        orgId: org.id,
        sub,
        email: `${firstName.toLowerCase()}-${sub.slice(0, 8)}@example.test`,
        firstName,
        lastName: name,
        roleId: role(roleName).id,
        isOwner: roleName === 'Owner',
        isVerified: true,
      })
      .returning();
    if (!m) throw new Error('member not created');
    const token = await t.tokenFor(sub);
    return { ...m, token, api: t.client(token) };
  };
  return {
    org,
    role,
    owner: await person('Owner', 'Olivia'),
    admin: await person('Admin', 'Adam'),
    manager: await person('Manager', 'Mona'),
    staff: await person('Staff', 'Stan'),
  };
}

const idpOf = () => ({ endpoint: t.endpoint, clientId: t.config.idp.clientId, outboxDir: t.outboxDir });

/**
 * The key from the newest invitation mailed to an address, once at least `atLeast` have been
 * (waits for the mail, not for a time: it may be sent after the answer, or by a job).
 */
function invitedKey(email: string, atLeast = 1) {
  return vi.waitFor(
    async () => {
      const mail = (await t.readOutbox()).filter(
        (m) => m.to === email && m.notes.link?.includes('/auth/invite/'),
      );
      const link = mail.at(-1)?.notes.link;
      if (!link || mail.length < atLeast) {
        throw new Error(`${mail.length} of ${atLeast} invitations mailed to ${email} so far`);
      }
      return { key: link.split('/auth/invite/')[1] ?? '', link, mail: mail.at(-1), count: mail.length };
    },
    { timeout: 10_000, interval: 20 },
  );
}

const logOf = (orgId: string, recordId: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), eq(systemLog.recordId, recordId)))
    .orderBy(systemLog.at);

describe('invitation lifecycle', () => {
  it('invites by mail, previews the link, and a real sign-up joins the firm with the invited role', async () => {
    const firm = await seededFirm('Lifecycle');
    const email = 'nina@lifecycle.test';
    const invite = await firm.owner.api.team.invite.mutate({
      email: '  Nina@Lifecycle.test ',
      roleId: firm.role('Manager').id,
    });
    expect(invite.email).toBe(email);

    const { key, link, mail } = await invitedKey(email);
    expect(link).toBe(`${t.config.publicUrl}/auth/invite/${key}`);
    expect(mail?.subject).toBe('Olivia Lifecycle invited you to join Lifecycle');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the key's hash is stored.
    const [stored] = await t.db.select().from(memberInvites).where(eq(memberInvites.id, invite.id));
    expect(stored?.keyHash).not.toContain(key);
    expect(stored?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    const days = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const pending = await firm.owner.api.team.invites.query({});
    expect(pending.rows).toEqual([
      expect.objectContaining({
        id: invite.id,
        email,
        role: { id: firm.role('Manager').id, name: 'Manager' },
        invitedBy: 'Olivia Lifecycle',
        expired: false,
      }),
    ]);

    // Anyone holding the link sees what it is for.
    expect(await t.client().invites.preview.query({ key })).toMatchObject({
      state: 'open',
      message: null,
      firmName: 'Lifecycle',
      inviterName: 'Olivia Lifecycle',
      email,
      roleName: 'Manager',
    });

    // Another identity cannot use it.
    const other = await signedUpUser(idpOf(), { email: 'someone-else@lifecycle.test' });
    await expect(t.client(other.AccessToken).invites.accept.mutate({ key })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: `This invitation was sent to ${email}. Sign in with that address to accept it.`,
    });
    await expect(t.client().invites.accept.mutate({ key })).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });

    const nina = await signedUpUser(idpOf(), { email, firstName: 'Nina', lastName: 'Nair' });
    const api = t.client(nina.AccessToken);
    const joined = await api.invites.accept.mutate({ key });
    expect(joined).toMatchObject({ orgId: firm.org.id, firmName: 'Lifecycle' });
    expect(await api.profile.me.query()).toMatchObject({
      id: joined.memberId,
      fullName: 'Nina Nair',
      email,
      isOwner: false,
      org: { id: firm.org.id },
      role: { name: 'Manager' },
    });
    const list = await firm.owner.api.team.list.query({ search: 'nina' });
    expect(list.rows).toEqual([
      expect.objectContaining({
        id: joined.memberId,
        name: 'Nina Nair',
        email,
        status: 'active',
        isOwner: false,
        role: { id: firm.role('Manager').id, name: 'Manager' },
      }),
    ]);
    expect((await firm.owner.api.team.invites.query({})).rows).toEqual([]);

    // The link is spent.
    expect(await t.client().invites.preview.query({ key })).toMatchObject({
      state: 'accepted',
      message: 'This invitation has already been used. Sign in to reach the firm.',
    });
    await expect(api.invites.accept.mutate({ key })).rejects.toMatchObject({ data: { code: 'CONFLICT' } });

    // Audited: the invitation by the owner, the acceptance and the joining by the new member.
    const inviteLog = await logOf(firm.org.id, invite.id);
    expect(inviteLog.map((r) => [r.action, r.actorMemberId])).toEqual([
      ['invite.create', firm.owner.id],
      ['invite.accept', joined.memberId],
    ]);
    expect(inviteLog[0]?.changes).toMatchObject({
      email: { from: null, to: email },
      role: { from: null, to: 'Manager' },
    });
    const memberLog = await logOf(firm.org.id, joined.memberId);
    expect(memberLog).toEqual([
      expect.objectContaining({
        action: 'member.join',
        recordType: 'member',
        changes: expect.objectContaining({ role: { from: null, to: 'Manager' } }),
      }),
    ]);

    // Inviting an address that is now a member is refused.
    await expect(
      firm.owner.api.team.invite.mutate({ email, roleId: firm.role('Staff').id }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: `${email} is already a member of the firm`,
    });
  });

  it('renews an open invitation for the same address, resends with a new link, and revokes', async () => {
    const firm = await seededFirm('Resend');
    const email = 'ravi@resend.test';
    const first = await firm.owner.api.team.invite.mutate({ email, roleId: firm.role('Staff').id });
    const { key: firstKey } = await invitedKey(email);

    // Inviting the same address again re-uses the open invitation with the new role and a new key.
    const again = await firm.admin.api.team.invite.mutate({ email, roleId: firm.role('Manager').id });
    expect(again.id).toBe(first.id);
    const { key: secondKey, count } = await invitedKey(email, 2);
    expect(count).toBe(2);
    expect(secondKey).not.toBe(firstKey);
    await expect(t.client().invites.preview.query({ key: firstKey })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect(await t.client().invites.preview.query({ key: secondKey })).toMatchObject({
      roleName: 'Manager',
      inviterName: 'Adam Resend',
    });

    const resent = await firm.owner.api.team.resendInvite.mutate({ inviteId: first.id });
    expect(resent.id).toBe(first.id);
    const { key: thirdKey, count: afterResend } = await invitedKey(email, 3);
    expect(afterResend).toBe(3);
    await expect(t.client().invites.preview.query({ key: secondKey })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });

    await firm.owner.api.team.revokeInvite.mutate({ inviteId: first.id });
    expect(await t.client().invites.preview.query({ key: thirdKey })).toMatchObject({
      state: 'revoked',
      message: 'This invitation was withdrawn by Resend. Ask them if you still need access.',
    });
    const ravi = await signedUpUser(idpOf(), { email });
    await expect(t.client(ravi.AccessToken).invites.accept.mutate({ key: thirdKey })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    await expect(firm.owner.api.team.resendInvite.mutate({ inviteId: first.id })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    expect((await firm.owner.api.team.invites.query({})).rows).toEqual([]);

    // Revoked invitations stay as history; a fresh one can be sent.
    const fresh = await firm.owner.api.team.invite.mutate({ email, roleId: firm.role('Staff').id });
    expect(fresh.id).not.toBe(first.id);

    const log = await logOf(firm.org.id, first.id);
    expect(log.map((r) => r.action)).toEqual([
      'invite.create',
      'invite.renew',
      'invite.resend',
      'invite.revoke',
    ]);
    expect(log[1]?.changes).toMatchObject({ role: { from: 'Staff', to: 'Manager' } });
    expect(log.every((r) => r.recordType === 'invite')).toBe(true);
  });

  it('says an expired link has expired, refuses it, and a resend makes it good again', async () => {
    const firm = await seededFirm('Expiry');
    const email = 'old@expiry.test';
    const invite = await firm.owner.api.team.invite.mutate({ email, roleId: firm.role('Staff').id });
    await t.db
      .update(memberInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberInvites.id, invite.id));
    const { key } = await invitedKey(email);
    expect(await t.client().invites.preview.query({ key })).toMatchObject({
      state: 'expired',
      message: 'This invitation has expired. Ask Expiry to send you a new one.',
    });
    expect((await firm.owner.api.team.invites.query({})).rows).toEqual([
      expect.objectContaining({ id: invite.id, expired: true }),
    ]);
    const user = await signedUpUser(idpOf(), { email, firstName: 'Olu', lastName: 'Old' });
    await expect(t.client(user.AccessToken).invites.accept.mutate({ key })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'This invitation has expired. Ask Expiry to send you a new one.',
    });
    await firm.owner.api.team.resendInvite.mutate({ inviteId: invite.id });
    const { key: renewed } = await invitedKey(email, 2);
    await expect(t.client(user.AccessToken).invites.accept.mutate({ key: renewed })).resolves.toMatchObject({
      orgId: firm.org.id,
    });
  });

  it('answers NOT_FOUND for an unknown key and BAD_REQUEST for one that is not well formed', async () => {
    await expect(t.client().invites.preview.query({ key: 'A'.repeat(43) })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
      message: 'This invitation link is not valid. Ask the firm to send you a new one.',
    });
    await expect(t.client().invites.preview.query({ key: 'short' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('refuses a person who already belongs to another firm (one firm per person for now)', async () => {
    const a = await seededFirm('FirstFirm');
    const b = await seededFirm('SecondFirm');
    const email = 'busy@two.test';
    const user = await signedUpUser(idpOf(), { email });
    await a.owner.api.team.invite.mutate({ email, roleId: a.role('Staff').id });
    await t.client(user.AccessToken).invites.accept.mutate({ key: (await invitedKey(email)).key });
    await b.owner.api.team.invite.mutate({ email, roleId: b.role('Staff').id });
    await expect(
      t.client(user.AccessToken).invites.accept.mutate({ key: (await invitedKey(email, 2)).key }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: expect.stringContaining('one firm only'),
    });
  });

  it('validates the invite form with messages a person can act on', async () => {
    const firm = await seededFirm('Validation');
    await expect(
      firm.owner.api.team.invite.mutate({ email: 'not-an-email', roleId: firm.role('Staff').id }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'Enter a valid email address',
    });
    await expect(
      firm.owner.api.team.invite.mutate({ email: 'x@y.test', roleId: firm.role('Owner').id }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'The Owner role belongs to the firm’s owner: transfer ownership instead',
    });
    await expect(
      firm.owner.api.team.invite.mutate({ email: 'x@y.test', roleId: randomUUID() }),
    ).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
  });
});

describe('signing up from an invitation', () => {
  const PASSWORD = 'Ledger#2026';
  const sdk = () =>
    new CognitoIdentityProviderClient({
      region: 'local-1',
      endpoint: t.endpoint,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });

  /** SignUp as the web app sends it from /auth/register?invite={key}, with the AWS SDK. */
  const signUp = (user: { username: string; email?: string; key?: string }) =>
    sdk().send(
      new SignUpCommand({
        ClientId: t.config.idp.clientId,
        Username: user.username,
        Password: PASSWORD,
        UserAttributes: [
          { Name: 'email', Value: user.email ?? user.username },
          { Name: 'given_name', Value: 'Omar' },
          { Name: 'family_name', Value: 'Okafor' },
        ],
        ValidationData: user.key === undefined ? undefined : [{ Name: SIGN_UP_INVITE_KEY, Value: user.key }],
      }),
    );

  const mailTo = async (email: string) =>
    (await t.readOutbox()).filter((m) => m.to.toLowerCase() === email).map((m) => m.subject);

  const userOf = async (sub: string | undefined) =>
    (
      await t.db
        .select()
        .from(idpUsers)
        .where(eq(idpUsers.id, sub ?? randomUUID()))
    )[0];

  it('confirms the invited address without a mail; the person signs in and joins, the invitation spent once', async () => {
    const firm = await seededFirm('OneStep');
    const email = 'omar@onestep.test';
    const invite = await firm.owner.api.team.invite.mutate({ email, roleId: firm.role('Staff').id });
    const { key } = await invitedKey(email);

    // Typed in another case, it is the same address.
    const up = await signUp({ username: 'Omar@OneStep.test', key });
    expect(up.UserConfirmed).toBe(true);
    expect(up.CodeDeliveryDetails).toBeUndefined();
    expect(await userOf(up.UserSub)).toMatchObject({ status: 'CONFIRMED', emailVerified: true, email });

    const auth = await sdk().send(
      new InitiateAuthCommand({
        ClientId: t.config.idp.clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'Omar@OneStep.test', PASSWORD },
      }),
    );
    const token = auth.AuthenticationResult?.AccessToken ?? '';
    const api = t.client(token);

    // Two joins at once (a double click): one member, one acceptance.
    const tries = await Promise.allSettled([
      api.invites.accept.mutate({ key }),
      api.invites.accept.mutate({ key }),
    ]);
    const joined = tries.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(joined).toHaveLength(1);
    expect(tries.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { data: { code: 'CONFLICT' } },
    });
    expect(await api.profile.me.query()).toMatchObject({
      id: joined[0]?.memberId,
      fullName: 'Omar Okafor',
      email,
      org: { id: firm.org.id },
      role: { name: 'Staff' },
    });
    const rows = await t.db
      .select()
      .from(members)
      .where(and(eq(members.orgId, firm.org.id), eq(members.email, email)));
    expect(rows).toHaveLength(1);
    const log = await logOf(firm.org.id, invite.id);
    expect(log.map((r) => [r.action, r.actorMemberId])).toEqual([
      ['invite.create', firm.owner.id],
      ['invite.accept', joined[0]?.memberId],
    ]);

    // The invitation is the only mail the person got.
    expect(await mailTo(email)).toEqual(['Olivia OneStep invited you to join OneStep']);

    // Spent, the key confirms nothing more.
    const later = await signUp({ username: 'omar-again', email, key });
    expect(later.UserConfirmed).toBe(false);
    expect(await userOf(later.UserSub)).toMatchObject({ status: 'UNCONFIRMED', emailVerified: false });
  });

  it('confirms only the address invited, only while the invitation is open', async () => {
    const firm = await seededFirm('Keys');
    const invited = 'ivy@keys.test';
    await firm.owner.api.team.invite.mutate({ email: invited, roleId: firm.role('Staff').id });
    const { key } = await invitedKey(invited);

    // Another address with the key: an ordinary sign-up, verified by a mail to that address.
    const other = await signUp({ username: 'ben@keys.test', key });
    expect(other.UserConfirmed).toBe(false);
    expect(other.CodeDeliveryDetails).toMatchObject({ DeliveryMedium: 'EMAIL', AttributeName: 'email' });
    expect(await userOf(other.UserSub)).toMatchObject({ status: 'UNCONFIRMED', emailVerified: false });
    expect(await mailTo('ben@keys.test')).toEqual(['Verify your email address']);
    // The invited name with another address is no better.
    const named = await signUp({ username: 'ivy', email: 'not-ivy@keys.test', key });
    expect(named.UserConfirmed).toBe(false);

    // Keys that are not an open invitation's.
    for (const bad of ['not-a-key', 'A'.repeat(43), '']) {
      const up = await signUp({ username: `x-${randomUUID().slice(0, 8)}`, email: invited, key: bad });
      expect(up.UserConfirmed).toBe(false);
    }
    const revoked = 'rita@keys.test';
    const r = await firm.owner.api.team.invite.mutate({ email: revoked, roleId: firm.role('Staff').id });
    const { key: revokedKey } = await invitedKey(revoked);
    await firm.owner.api.team.revokeInvite.mutate({ inviteId: r.id });
    expect((await signUp({ username: revoked, key: revokedKey })).UserConfirmed).toBe(false);
    expect(await mailTo(revoked)).toEqual([
      'Olivia Keys invited you to join Keys',
      'Verify your email address',
    ]);

    const expired = 'eli@keys.test';
    const e = await firm.owner.api.team.invite.mutate({ email: expired, roleId: firm.role('Staff').id });
    const { key: expiredKey } = await invitedKey(expired);
    await t.db
      .update(memberInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberInvites.id, e.id));
    expect((await signUp({ username: expired, key: expiredKey })).UserConfirmed).toBe(false);

    // The invited address already verified by another user stays theirs: the sign-up is refused.
    const taken = 'tom@keys.test';
    await firm.owner.api.team.invite.mutate({ email: taken, roleId: firm.role('Staff').id });
    const { key: takenKey } = await invitedKey(taken);
    await t.db.insert(idpUsers).values({
      id: randomUUID(),
      username: 'tom-first',
      usernameKey: 'tom-first',
      email: taken,
      emailVerified: true,
      status: 'CONFIRMED',
      passwordHash: 'x',
      srpSalt: 'x',
      srpVerifier: 'x',
    });
    await expect(signUp({ username: taken, key: takenKey })).rejects.toMatchObject({
      name: 'AliasExistsException',
      message: 'An account with the given email already exists.',
    });
    expect(await t.db.select().from(idpUsers).where(eq(idpUsers.usernameKey, taken))).toEqual([]);

    // Nothing was joined or spent by any of it.
    expect(
      (await t.db.select().from(memberInvites).where(eq(memberInvites.orgId, firm.org.id))).every(
        (i) => i.acceptedAt === null,
      ),
    ).toBe(true);
  });
});

describe('members', () => {
  it('lists with search, filters, sort and server-side pages', async () => {
    const firm = await seededFirm('Listing');
    const api = firm.owner.api;
    const all = await api.team.list.query({ sort: 'name', direction: 'asc' });
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => r.name)).toEqual([
      'Adam Listing',
      'Mona Listing',
      'Olivia Listing',
      'Stan Listing',
    ]);
    expect(all.rows[2]).toMatchObject({
      isOwner: true,
      role: { name: 'Owner' },
      status: 'active',
      designation: null,
    });
    const page2 = await api.team.list.query({ sort: 'name', direction: 'asc', page: 2, pageSize: 3 });
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.rows.map((r) => r.name)).toEqual(['Stan Listing']);
    expect(
      (await api.team.list.query({ search: firm.staff.email.slice(0, 12) })).rows.map((r) => r.id),
    ).toEqual([firm.staff.id]);
    expect((await api.team.list.query({ roleId: firm.role('Manager').id })).rows.map((r) => r.id)).toEqual([
      firm.manager.id,
    ]);
    expect(
      (await api.team.list.query({ sort: 'role', direction: 'desc' })).rows.map((r) => r.role.name),
    ).toEqual(['Staff', 'Owner', 'Manager', 'Admin']);
    await api.team.deactivate.mutate({ memberId: firm.staff.id });
    expect((await api.team.list.query({ status: 'disabled' })).rows.map((r) => r.id)).toEqual([
      firm.staff.id,
    ]);
    expect((await api.team.list.query({ status: 'active' })).total).toBe(3);
    expect((await api.team.roles.query()).map((r) => r.name)).toEqual(['Admin', 'Manager', 'Staff']);
  });

  it('records when a member was last active, at most once per five minutes', async () => {
    const firm = await seededFirm('Activity');
    const lastActiveOf = async (memberId: string) =>
      (await t.db.select({ at: members.lastActiveAt }).from(members).where(eq(members.id, memberId)))[0]?.at;
    const lastActive = () => lastActiveOf(firm.staff.id);
    expect(await lastActive()).toBeNull();
    await firm.staff.api.profile.me.query();
    await expect.poll(lastActive).not.toBeNull();
    const first = await lastActive();
    await firm.staff.api.profile.me.query();
    // A write for that call would have been issued before the manager's first call is even made:
    // once the manager's "last active" has landed, the staff member's would have too.
    const managerActive = () => lastActiveOf(firm.manager.id);
    expect(await managerActive()).toBeNull();
    await firm.manager.api.profile.me.query();
    await expect.poll(managerActive).not.toBeNull();
    expect(await lastActive()).toEqual(first);
    const old = new Date(Date.now() - 6 * 60_000);
    await t.db.update(members).set({ lastActiveAt: old }).where(eq(members.id, firm.staff.id));
    await firm.staff.api.profile.me.query();
    await expect.poll(async () => (await lastActive())?.getTime()).toBeGreaterThan(old.getTime());
    const row = (await firm.owner.api.team.list.query({ search: 'Stan' })).rows[0];
    expect(row?.lastActiveAt).toBeInstanceOf(Date);
  });

  it('changes a role, audited with the change', async () => {
    const firm = await seededFirm('Roles');
    const result = await firm.admin.api.team.changeRole.mutate({
      memberId: firm.staff.id,
      roleId: firm.role('Manager').id,
    });
    expect(result.role.name).toBe('Manager');
    expect(await firm.staff.api.profile.me.query()).toMatchObject({ role: { name: 'Manager' } });
    const [entry] = await logOf(firm.org.id, firm.staff.id);
    expect(entry).toMatchObject({
      action: 'member.changeRole',
      recordType: 'member',
      actorMemberId: firm.admin.id,
      changes: { role: { from: 'Staff', to: 'Manager' } },
      summary: 'Changed Stan Roles’s role from Staff to Manager',
    });
    // The same role again changes nothing and logs nothing.
    await firm.admin.api.team.changeRole.mutate({ memberId: firm.staff.id, roleId: firm.role('Manager').id });
    expect(await logOf(firm.org.id, firm.staff.id)).toHaveLength(1);
  });

  it('deactivates a member, whose very next call is refused, and reactivates them', async () => {
    const firm = await seededFirm('Deactivate');
    await expect(firm.staff.api.profile.me.query()).resolves.toMatchObject({ id: firm.staff.id });
    await firm.admin.api.team.deactivate.mutate({ memberId: firm.staff.id });
    await expect(firm.staff.api.profile.me.query()).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: 'Your access to this firm has been turned off',
    });
    await expect(
      firm.owner.api.team.invite.mutate({ email: firm.staff.email, roleId: firm.role('Staff').id }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: expect.stringContaining('reactivate them instead'),
    });
    await firm.admin.api.team.reactivate.mutate({ memberId: firm.staff.id });
    await expect(firm.staff.api.profile.me.query()).resolves.toMatchObject({ id: firm.staff.id });
    const log = await logOf(firm.org.id, firm.staff.id);
    expect(log.map((r) => [r.action, r.changes])).toEqual([
      ['member.deactivate', { status: { from: 'active', to: 'disabled' } }],
      ['member.reactivate', { status: { from: 'disabled', to: 'active' } }],
    ]);
  });
});

describe('owner protections', () => {
  it('nobody changes the owner’s role, deactivates or demotes the owner; nobody deactivates themselves', async () => {
    const firm = await seededFirm('Protected');
    const admin = firm.admin.api;
    await expect(
      admin.team.changeRole.mutate({ memberId: firm.owner.id, roleId: firm.role('Staff').id }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: 'The owner’s role cannot be changed',
    });
    await expect(admin.team.deactivate.mutate({ memberId: firm.owner.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: 'The owner cannot be deactivated',
    });
    await expect(admin.team.transferOwnership.mutate({ memberId: firm.admin.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: 'Only the owner can transfer ownership',
    });
    await expect(admin.team.deactivate.mutate({ memberId: firm.admin.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
      message: 'You cannot deactivate yourself',
    });
    await expect(
      admin.team.changeRole.mutate({ memberId: firm.admin.id, roleId: firm.role('Staff').id }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(firm.owner.api.team.deactivate.mutate({ memberId: firm.owner.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(
      admin.team.changeRole.mutate({ memberId: firm.staff.id, roleId: firm.role('Owner').id }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    const [owner] = await t.db.select().from(members).where(eq(members.id, firm.owner.id));
    expect(owner).toMatchObject({ isOwner: true, status: 'active', roleId: firm.role('Owner').id });
    expect(await logOf(firm.org.id, firm.owner.id)).toEqual([]);
  });

  it('the owner transfers ownership to an active member and becomes an Admin', async () => {
    const firm = await seededFirm('Transfer');
    await expect(
      firm.owner.api.team.transferOwnership.mutate({ memberId: firm.owner.id }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await firm.owner.api.team.deactivate.mutate({ memberId: firm.manager.id });
    await expect(
      firm.owner.api.team.transferOwnership.mutate({ memberId: firm.manager.id }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await firm.owner.api.team.transferOwnership.mutate({ memberId: firm.staff.id });
    expect(await firm.staff.api.profile.me.query()).toMatchObject({ isOwner: true, role: { name: 'Owner' } });
    expect(await firm.owner.api.profile.me.query()).toMatchObject({
      isOwner: false,
      role: { name: 'Admin' },
    });
    // The former owner is now protected against nothing: the new owner may deactivate them.
    await expect(
      firm.owner.api.team.transferOwnership.mutate({ memberId: firm.owner.id }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(firm.admin.api.team.deactivate.mutate({ memberId: firm.staff.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const [entry] = await logOf(firm.org.id, firm.staff.id);
    expect(entry).toMatchObject({
      action: 'member.transferOwnership',
      actorMemberId: firm.owner.id,
      changes: expect.objectContaining({ owner: { from: 'Olivia Transfer', to: 'Stan Transfer' } }),
    });
  });
});

describe('permission matrix', () => {
  // Each seeded role × each staff procedure of this feature: allowed, or FORBIDDEN.
  const expected: Record<string, Record<TRoleName, boolean>> = {
    list: { Owner: true, Admin: true, Manager: true, Staff: false },
    invites: { Owner: true, Admin: true, Manager: true, Staff: false },
    roles: { Owner: true, Admin: true, Manager: true, Staff: false },
    invite: { Owner: true, Admin: true, Manager: false, Staff: false },
    resendInvite: { Owner: true, Admin: true, Manager: false, Staff: false },
    revokeInvite: { Owner: true, Admin: true, Manager: false, Staff: false },
    changeRole: { Owner: true, Admin: true, Manager: false, Staff: false },
    deactivate: { Owner: true, Admin: true, Manager: false, Staff: false },
    reactivate: { Owner: true, Admin: true, Manager: false, Staff: false },
    transferOwnership: { Owner: true, Admin: false, Manager: false, Staff: false },
  };

  for (const roleName of ['Owner', 'Admin', 'Manager', 'Staff'] as const) {
    it(`${roleName}`, async () => {
      const firm = await seededFirm(`Matrix ${roleName}`);
      const caller = { Owner: firm.owner, Admin: firm.admin, Manager: firm.manager, Staff: firm.staff }[
        roleName
      ];
      // A target that is never the caller, and a fresh invitation for each call that needs one.
      const target = roleName === 'Staff' ? firm.manager : firm.staff;
      const newInvite = async () =>
        (
          await firm.owner.api.team.invite.mutate({
            email: `${randomUUID()}@matrix.test`,
            roleId: firm.role('Staff').id,
          })
        ).id;
      const api = caller.api.team;
      const calls: Record<string, () => Promise<unknown>> = {
        list: () => api.list.query({}),
        invites: () => api.invites.query({}),
        roles: () => api.roles.query(),
        invite: () =>
          api.invite.mutate({ email: `${randomUUID()}@matrix.test`, roleId: firm.role('Staff').id }),
        resendInvite: async () => api.resendInvite.mutate({ inviteId: await newInvite() }),
        revokeInvite: async () => api.revokeInvite.mutate({ inviteId: await newInvite() }),
        changeRole: () => api.changeRole.mutate({ memberId: target.id, roleId: firm.role('Manager').id }),
        deactivate: () => api.deactivate.mutate({ memberId: target.id }),
        reactivate: () => api.reactivate.mutate({ memberId: target.id }),
        transferOwnership: () => api.transferOwnership.mutate({ memberId: target.id }),
      };
      const outcome: Record<string, boolean> = {};
      for (const [name, call] of Object.entries(calls)) {
        try {
          await call();
          outcome[name] = true;
        } catch (error) {
          expect(error, name).toMatchObject({ data: { code: 'FORBIDDEN' } });
          outcome[name] = false;
        }
      }
      expect(outcome).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v[roleName]])));
    });
  }
});

describe('cross-org', () => {
  it('answers NOT_FOUND for every id of another firm, and changes nothing there', async () => {
    const a = await seededFirm('CrossA');
    const b = await seededFirm('CrossB');
    const bInvite = await b.owner.api.team.invite.mutate({
      email: 'b-only@cross.test',
      roleId: b.role('Staff').id,
    });
    const api = a.owner.api.team;
    const notFound = { data: { code: 'NOT_FOUND' } };
    await expect(api.resendInvite.mutate({ inviteId: bInvite.id })).rejects.toMatchObject(notFound);
    await expect(api.revokeInvite.mutate({ inviteId: bInvite.id })).rejects.toMatchObject(notFound);
    await expect(
      api.changeRole.mutate({ memberId: b.staff.id, roleId: a.role('Manager').id }),
    ).rejects.toMatchObject(notFound);
    await expect(
      api.changeRole.mutate({ memberId: a.staff.id, roleId: b.role('Manager').id }),
    ).rejects.toMatchObject(notFound);
    await expect(api.deactivate.mutate({ memberId: b.staff.id })).rejects.toMatchObject(notFound);
    await expect(api.reactivate.mutate({ memberId: b.staff.id })).rejects.toMatchObject(notFound);
    await expect(api.transferOwnership.mutate({ memberId: b.staff.id })).rejects.toMatchObject(notFound);
    await expect(
      api.invite.mutate({ email: 'x@cross.test', roleId: b.role('Staff').id }),
    ).rejects.toMatchObject(notFound);
    // Lists only ever show the caller's firm.
    expect((await api.list.query({ search: 'CrossB' })).rows).toEqual([]);
    expect((await api.list.query({ roleId: b.role('Staff').id })).rows).toEqual([]);
    expect((await api.invites.query({})).rows).toEqual([]);
    expect((await api.roles.query()).every((r) => a.role(r.name as TRoleName).id === r.id)).toBe(true);
    // Firm B is untouched.
    const [bStaff] = await t.db.select().from(members).where(eq(members.id, b.staff.id));
    expect(bStaff).toMatchObject({ status: 'active', roleId: b.role('Staff').id });
    const [bInviteRow] = await t.db.select().from(memberInvites).where(eq(memberInvites.id, bInvite.id));
    expect(bInviteRow?.revokedAt).toBeNull();
    expect(await logOf(b.org.id, b.staff.id)).toEqual([]);
  });
});
