import { z } from 'zod';
import type { TClientType } from '../clients';
import { zString } from '../fields';
import {
  GST_SCHEMES,
  type TGstScheme,
  type TRegistrationFacts,
  type TTurnoverBand,
  TURNOVER_BANDS,
} from './catalogue';
import {
  cinProblem,
  gstinProblem,
  llpinProblem,
  panOfGstin,
  panProblem,
  stateOfGstin,
  tanProblem,
} from './identifiers';

// A client's tax registrations (issue 39): the same schema checks the profile form, the procedure
// and a CSV import's columns.

/** An identifier as typed: spaces dropped, upper case, blank is none. */
const identifier = (check: (v: string) => string | null) =>
  zString()
    .max(40, 'This identifier is too long')
    .nullish()
    .transform((v) => (v ? v.replace(/\s+/g, '').toUpperCase() : null))
    .superRefine((v, ctx) => {
      const problem = v ? check(v) : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

export const ZRegistrations = z
  .object({
    gstin: identifier(gstinProblem),
    gstScheme: z
      .enum(GST_SCHEMES, 'Choose the GST scheme')
      .nullish()
      .transform((v) => v ?? null),
    turnoverBand: z
      .enum(TURNOVER_BANDS, 'Choose a turnover band')
      .nullish()
      .transform((v) => v ?? null),
    pan: identifier(panProblem),
    tan: identifier(tanProblem),
    cin: identifier(cinProblem),
    llpin: identifier(llpinProblem),
    taxAudit: z.boolean().default(false),
    transferPricing: z.boolean().default(false),
    collectsTcs: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.gstin && !v.gstScheme)
      ctx.addIssue({ code: 'custom', path: ['gstScheme'], message: 'Choose the GST scheme of this GSTIN' });
    if (!v.gstin && v.gstScheme)
      ctx.addIssue({ code: 'custom', path: ['gstin'], message: 'Enter the GSTIN for this scheme' });
    if (v.gstin && v.pan && panOfGstin(v.gstin) !== v.pan)
      ctx.addIssue({
        code: 'custom',
        path: ['gstin'],
        message: `This GSTIN belongs to PAN ${panOfGstin(v.gstin)}, not ${v.pan}`,
      });
    if (v.cin && v.llpin)
      ctx.addIssue({
        code: 'custom',
        path: ['llpin'],
        message: 'A client is a company (CIN) or an LLP (LLPIN), not both',
      });
  });
export type TRegistrationsInput = z.input<typeof ZRegistrations>;
export type TRegistrations = z.output<typeof ZRegistrations>;

export const ZRegistrationsSet = z.object({
  clientId: z.uuid('Choose a client from the list'),
  data: ZRegistrations,
});

export const EMPTY_REGISTRATIONS: TRegistrations = {
  gstin: null,
  gstScheme: null,
  turnoverBand: null,
  pan: null,
  tan: null,
  cin: null,
  llpin: null,
  taxAudit: false,
  transferPricing: false,
  collectsTcs: false,
};

/** The facts applicability reads: the registrations, the GST state from the GSTIN, the client's type. */
export function factsOf(clientType: TClientType, r: TRegistrations): TRegistrationFacts {
  return { ...r, clientType, gstState: r.gstin ? stateOfGstin(r.gstin) : null };
}

export const isGstScheme = (v: string): v is TGstScheme => (GST_SCHEMES as readonly string[]).includes(v);
export const isTurnoverBand = (v: string): v is TTurnoverBand =>
  (TURNOVER_BANDS as readonly string[]).includes(v);

/** The registration fields that are also tax identifiers: their one home is the registrations. */
export type TRegisteredTaxIds = Pick<TRegistrations, 'pan' | 'tan' | 'gstin'>;

const REGISTERED_KIND: Readonly<Record<string, keyof TRegisteredTaxIds>> = {
  PAN: 'pan',
  TAN: 'tan',
  GSTIN: 'gstin',
  GST: 'gstin',
};
const REGISTERED_CHECK = { pan: panProblem, tan: tanProblem, gstin: gstinProblem } as const;

/**
 * A tax-identifier list split into what belongs to the registrations (a PAN, TAN or GSTIN that passes
 * its check, the GSTIN's PAN equal to the PAN) and the rest, which stays a plain identifier (another
 * country's, or one that does not pass: kept as typed, as the CSV import keeps it).
 */
export function splitTaxIds(taxIds: readonly { kind: string; value: string }[]): {
  registered: TRegisteredTaxIds;
  rest: { kind: string; value: string }[];
} {
  const registered: TRegisteredTaxIds = { pan: null, tan: null, gstin: null };
  const rest: { kind: string; value: string }[] = [];
  const pending: { field: keyof TRegisteredTaxIds; value: string; item: { kind: string; value: string } }[] =
    [];
  for (const item of taxIds) {
    const field = REGISTERED_KIND[item.kind.trim().toUpperCase()];
    const value = item.value.replace(/\s+/g, '').toUpperCase();
    if (field && !registered[field] && !REGISTERED_CHECK[field](value)) {
      registered[field] = value;
      pending.push({ field, value, item });
    } else rest.push(item);
  }
  if (registered.gstin && registered.pan && panOfGstin(registered.gstin) !== registered.pan) {
    const gstin = pending.find((p) => p.field === 'gstin');
    if (gstin) rest.push(gstin.item);
    registered.gstin = null;
  }
  return { registered, rest };
}
