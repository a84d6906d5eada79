import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import type { TCreateFirm } from '../../../domain/onboarding';
import { SEEDED_ROLES } from '../../../domain/permissions';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { idpUsers, members, orgs, roles } from '../../db/schema';
import type { TStaffIdentity } from '../../idp/staff-auth';
import type { TRequestMeta } from '../../trpc/context';
import { audit } from '../system-log/service';

/** The identity's email as the provider knows it: its own table, or a Cognito pool's GetUser. */
async function identityEmail(db: TDb, config: TConfig, identity: TStaffIdentity) {
  if (config.idp.mode === 'embedded') {
    const [user] = await db
      .select({ email: idpUsers.email, emailVerified: idpUsers.emailVerified })
      .from(idpUsers)
      .where(eq(idpUsers.id, identity.sub))
      .limit(1);
    if (user?.email) return { email: user.email, verified: user.emailVerified };
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'Verify your email address first' });
  }
  const res = await fetch(config.idp.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.GetUser',
    },
    body: JSON.stringify({ AccessToken: identity.accessToken }),
  });
  if (!res.ok) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  const user = (await res.json()) as { UserAttributes?: { Name: string; Value: string }[] };
  const attribute = (name: string) => user.UserAttributes?.find((a) => a.Name === name)?.Value;
  const email = attribute('email');
  if (!email)
    throw new TRPCError({
      code: 'PRECONDITION_FAILED',
      message: 'Add an email address to your account first',
    });
  return { email: email.toLowerCase(), verified: attribute('email_verified') === 'true' };
}

/** A newly registered person creates their firm, with the seeded roles, and becomes its owner. */
export async function createFirm(
  db: TDb,
  config: TConfig,
  identity: TStaffIdentity,
  input: TCreateFirm,
  meta: TRequestMeta,
) {
  if (identity.member) throw new TRPCError({ code: 'CONFLICT', message: 'You already belong to a firm' });
  const { email, verified } = await identityEmail(db, config, identity);
  return db.transaction(async (tx) => {
    const [org] = await tx
      .insert(orgs)
      .values({
        name: input.firmName,
        country: input.country,
        timeZone: input.timeZone,
        currency: input.currency,
        fiscalYearStartMonth: input.fiscalYearStartMonth,
      })
      .returning();
    if (!org) throw new Error('firm not created');
    const created = await tx
      .insert(roles)
      .values(SEEDED_ROLES.map((role) => ({ orgId: org.id, ...role, permissions: [...role.permissions] })))
      .returning({ id: roles.id, name: roles.name });
    const ownerRole = created.find((role) => role.name === 'Owner');
    if (!ownerRole) throw new Error('owner role not created');
    const [owner] = await tx
      .insert(members)
      .values({
        orgId: org.id,
        sub: identity.sub,
        email,
        firstName: input.firstName,
        lastName: input.lastName,
        roleId: ownerRole.id,
        isOwner: true,
        isVerified: verified,
        status: 'active',
      })
      .returning({ id: members.id });
    if (!owner) throw new Error('owner not created');
    await audit(
      tx,
      { kind: 'member', orgId: org.id, memberId: owner.id, meta },
      { action: 'org.create', recordType: 'org', recordId: org.id, summary: `Created the firm ${org.name}` },
    );
    return { orgId: org.id, memberId: owner.id };
  });
}
