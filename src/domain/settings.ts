import { z } from 'zod';
import { zString } from './fields';
import { firmRegionFields } from './onboarding';

/** The tax registrations a firm in a country usually holds; elsewhere the kind is free text. */
export const TAX_ID_KINDS: Readonly<Record<string, readonly string[]>> = {
  IN: ['PAN', 'TAN', 'GSTIN'],
  US: ['EIN'],
  GB: ['UTR', 'VAT'],
};

export function taxIdKinds(country: string | null | undefined): readonly string[] | null {
  return (country && TAX_ID_KINDS[country]) || null;
}

export const MAX_TAX_IDS = 20;

/** The logo: small enough to live in the database and be read on every portal page. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type TLogoContentType = (typeof LOGO_CONTENT_TYPES)[number];
/** Base64 is 4 characters per 3 bytes. */
const LOGO_MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

export function logoUrl(orgId: string, logoVersion: number): string | null {
  return logoVersion > 0 ? `/api/orgs/${orgId}/logo?v=${logoVersion}` : null;
}

/** Optional text: blank becomes null so "cleared" and "never set" read the same. */
const optionalText = (label: string, max: number) =>
  zString()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .transform((v) => v ?? null);

export const ZTaxId = z.object({
  kind: zString().trim().min(1, 'Choose the kind of identifier').max(40, 'Kind is too long'),
  value: zString()
    .trim()
    .min(1, 'Enter the identifier')
    .max(40, 'Identifier must be at most 40 characters')
    .regex(/^[A-Za-z0-9 ./-]+$/, 'Use letters, digits, spaces, dots, slashes and dashes only'),
});
export type TTaxId = z.infer<typeof ZTaxId>;

/**
 * Tax identifiers against the country's kinds (when it has a list), each listed once: the rule the
 * firm's profile and a client's share.
 */
export function checkTaxIds(
  value: { country: string | null | undefined; taxIds: readonly TTaxId[] },
  ctx: z.RefinementCtx,
): void {
  const kinds = taxIdKinds(value.country);
  const seen = new Set<string>();
  value.taxIds.forEach((taxId, index) => {
    if (kinds && !kinds.includes(taxId.kind)) {
      ctx.addIssue({
        code: 'custom',
        path: ['taxIds', index, 'kind'],
        message: `Choose one of ${kinds.join(', ')}`,
      });
    }
    const key = `${taxId.kind.toUpperCase()}:${taxId.value.toUpperCase()}`;
    if (seen.has(key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['taxIds', index, 'value'],
        message: 'This identifier is listed twice',
      });
    }
    seen.add(key);
  });
}

/** The firm profile as /admin/settings/org saves it; the same schema checks the form and the server. */
export const ZOrgSettings = z
  .object({
    name: zString()
      .trim()
      .min(2, 'Firm name must be at least 2 characters')
      .max(120, 'Firm name is too long'),
    legalName: optionalText('Legal name', 200),
    addressLine1: optionalText('Address line 1', 200),
    addressLine2: optionalText('Address line 2', 200),
    city: optionalText('City', 100),
    region: optionalText('Region or state', 100),
    postalCode: optionalText('Postal code', 20),
    ...firmRegionFields,
    taxIds: z.array(ZTaxId).max(MAX_TAX_IDS, `At most ${MAX_TAX_IDS} tax identifiers`),
  })
  .superRefine(checkTaxIds);
export type TOrgSettingsInput = z.input<typeof ZOrgSettings>;
export type TOrgSettings = z.output<typeof ZOrgSettings>;

export const ZLogoUpload = z.object({
  /** The image's bytes in base64 (no data: prefix). */
  dataBase64: zString()
    .min(1, 'Choose an image')
    .max(LOGO_MAX_BASE64, `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The image could not be read: upload it again'),
});
export type TLogoUpload = z.infer<typeof ZLogoUpload>;
