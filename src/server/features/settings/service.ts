import { TRPCError } from '@trpc/server';
import { eq, sql } from 'drizzle-orm';
import { LOGO_MAX_BYTES, logoUrl, type TLogoUpload, type TOrgSettings } from '../../../domain/settings';
import { actorOf, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { orgLogos, orgs } from '../../db/schema';
import { audit, diff } from '../system-log';
import { sniffImage } from './logo';

type TScope = { orgId: string; memberId: string };

const settingsColumns = {
  id: orgs.id,
  name: orgs.name,
  legalName: orgs.legalName,
  addressLine1: orgs.addressLine1,
  addressLine2: orgs.addressLine2,
  city: orgs.city,
  region: orgs.region,
  postalCode: orgs.postalCode,
  country: orgs.country,
  timeZone: orgs.timeZone,
  currency: orgs.currency,
  fiscalYearStartMonth: orgs.fiscalYearStartMonth,
  taxIds: orgs.taxIds,
  logoVersion: orgs.logoVersion,
  updatedAt: orgs.updatedAt,
};

async function readSettings(db: TExecutor, orgId: string, lock = false) {
  const query = db.select(settingsColumns).from(orgs).where(eq(orgs.id, orgId)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Firm not found' });
  return row;
}

/** The firm profile of the caller's firm; the org always comes from the session. */
export async function getOrgSettings(db: TExecutor, scope: TScope) {
  const row = await readSettings(db, scope.orgId);
  return { ...row, logoUrl: logoUrl(row.id, row.logoVersion) };
}
export type TOrgSettingsView = Awaited<ReturnType<typeof getOrgSettings>>;

export async function updateOrgSettings(db: TDb, scope: TScope, input: TOrgSettings, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await readSettings(tx, scope.orgId, true);
    const changes = diff(before, input);
    if (changes) {
      await tx.update(orgs).set(input).where(eq(orgs.id, scope.orgId));
      await audit(tx, actorOf(scope, meta), {
        action: 'org.update',
        recordType: 'org',
        recordId: scope.orgId,
        summary: `Updated the firm profile (${Object.keys(changes).join(', ')})`,
        changes,
      });
    }
    return { changed: Boolean(changes), settings: await getOrgSettings(tx, scope) };
  });
}

/** logo_version is a smallint: it wraps before it overflows (only "different from before" matters). */
const nextLogoVersion = sql`(${orgs.logoVersion} % 32000) + 1`;

export async function uploadLogo(db: TDb, scope: TScope, input: TLogoUpload, meta: TRequestMeta) {
  const bytes = Buffer.from(input.dataBase64, 'base64');
  if (bytes.length === 0) throw new TRPCError({ code: 'BAD_REQUEST', message: 'The image is empty' });
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB`,
    });
  }
  const sniffed = sniffImage(bytes);
  if (!sniffed.ok) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        sniffed.reason === 'svg'
          ? 'SVG logos are not accepted (they can carry scripts): upload a PNG, JPEG or WebP image'
          : 'This file is not a PNG, JPEG or WebP image',
    });
  }
  return db.transaction(async (tx) => {
    const before = await readSettings(tx, scope.orgId, true);
    await tx
      .insert(orgLogos)
      .values({ orgId: scope.orgId, contentType: sniffed.contentType, bytes })
      .onConflictDoUpdate({
        target: orgLogos.orgId,
        set: { contentType: sniffed.contentType, bytes, updatedAt: new Date() },
      });
    const [after] = await tx
      .update(orgs)
      .set({ logoVersion: nextLogoVersion })
      .where(eq(orgs.id, scope.orgId))
      .returning({ logoVersion: orgs.logoVersion });
    await audit(tx, actorOf(scope, meta), {
      action: 'org.logo.update',
      recordType: 'org',
      recordId: scope.orgId,
      summary: `Uploaded a new logo (${sniffed.contentType}, ${Math.ceil(bytes.length / 1024)} KB)`,
      changes: { logoVersion: { from: before.logoVersion, to: after?.logoVersion } },
    });
    return { logoUrl: logoUrl(scope.orgId, after?.logoVersion ?? 0) };
  });
}

export async function removeLogo(db: TDb, scope: TScope, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await readSettings(tx, scope.orgId, true);
    if (before.logoVersion === 0) return { logoUrl: null };
    await tx.delete(orgLogos).where(eq(orgLogos.orgId, scope.orgId));
    await tx.update(orgs).set({ logoVersion: 0 }).where(eq(orgs.id, scope.orgId));
    await audit(tx, actorOf(scope, meta), {
      action: 'org.logo.remove',
      recordType: 'org',
      recordId: scope.orgId,
      summary: 'Removed the logo',
      changes: { logoVersion: { from: before.logoVersion, to: 0 } },
    });
    return { logoUrl: null };
  });
}
