import { TRPCError } from '@trpc/server';
import type { TCreateFirm } from '../../../domain/onboarding';
import { SEEDED_ROLES } from '../../../domain/permissions';
import { CATALOGUE_VERSION } from '../../../domain/statutory/catalogue';
import type { TRequestMeta } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { members, orgs, roles } from '../../db/schema';
import { identityProfile } from '../../idp/identity-profile';
import type { TStaffIdentity } from '../../idp/staff-auth';
import { audit } from '../system-log';

/** The identity's email as the provider knows it; a firm's owner needs one. */
async function identityEmail(db: TDb, config: TConfig, identity: TStaffIdentity) {
  const profile = await identityProfile(db, config, identity);
  if (!profile.email) {
    throw new TRPCError({
      code: 'PRECONDITION_FAILED',
      message: 'Add an email address to your account first',
    });
  }
  return { email: profile.email, verified: profile.verified };
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
        // A new firm has nothing to review: it starts on the current catalogue.
        statutoryCatalogueVersion: CATALOGUE_VERSION,
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
