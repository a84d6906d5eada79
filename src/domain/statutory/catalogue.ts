import type { TClientType } from '../clients';
import type { TRecurringFrequency } from '../periods';
import type { TDueDateRule } from '../services';

// The catalogue of statutory filings shipped with the product: versioned data, read-only, shared by
// every firm. A release that changes a rule adds an entry to CATALOGUE_RELEASES (the old ones stay:
// each firm keeps the version it accepted until it reviews the change, catalogue-changes.ts). India
// first; a country is a key of a release's countries with its own fiscal year and filings.

export const GST_SCHEMES = ['regular', 'qrmp', 'composition'] as const;
export type TGstScheme = (typeof GST_SCHEMES)[number];
export const GST_SCHEME_LABELS: Record<TGstScheme, string> = {
  regular: 'Regular (monthly returns)',
  qrmp: 'QRMP (quarterly returns, monthly payment)',
  composition: 'Composition',
};

/** Aggregate turnover bands that decide the GST annual return and reconciliation statement. */
export const TURNOVER_BANDS = ['up_to_2cr', '2cr_to_5cr', 'over_5cr'] as const;
export type TTurnoverBand = (typeof TURNOVER_BANDS)[number];
export const TURNOVER_BAND_LABELS: Record<TTurnoverBand, string> = {
  up_to_2cr: 'Up to ₹2 crore',
  '2cr_to_5cr': '₹2 crore to ₹5 crore',
  over_5cr: 'Over ₹5 crore',
};

/** The income-tax return's category, which decides its due date. */
export const ITR_CATEGORIES = ['non_audit', 'audit', 'transfer_pricing'] as const;
export type TItrCategory = (typeof ITR_CATEGORIES)[number];

/**
 * GSTR-3B of QRMP taxpayers: the 22nd for the states of category A, the 24th for category B
 * (notification 76/2020-CT as amended). Every other GST state code is category B.
 */
export const GST_CATEGORY_A_STATES: readonly string[] = [
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
];
export const gstStateCategory = (stateCode: string): 'A' | 'B' =>
  GST_CATEGORY_A_STATES.includes(stateCode) ? 'A' : 'B';

/** What the applicability rules read about a client (its registrations and type). */
export type TRegistrationFacts = {
  clientType: TClientType;
  gstin: string | null;
  gstState: string | null;
  gstScheme: TGstScheme | null;
  turnoverBand: TTurnoverBand | null;
  pan: string | null;
  tan: string | null;
  cin: string | null;
  llpin: string | null;
  taxAudit: boolean;
  transferPricing: boolean;
  collectsTcs: boolean;
};

/** Who must file: every condition given must hold. */
export type TApplicability = {
  /** GST registered under one of these schemes. */
  gstSchemes?: readonly TGstScheme[];
  /** QRMP's GSTR-3B date by the registration's state. */
  gstStateCategory?: 'A' | 'B';
  /** In one of these bands (an unknown band counts as in every band). */
  turnoverBands?: readonly TTurnoverBand[];
  pan?: true;
  tan?: true;
  cin?: true;
  llpin?: true;
  itrCategory?: TItrCategory;
  taxAudit?: true;
  collectsTcs?: true;
  clientTypes?: readonly TClientType[];
};

export type TAuthority = 'GST' | 'Income tax' | 'TDS/TCS' | 'MCA';

export type TFiling = {
  /** Stable key, stored in a service's link: never reused for another filing. */
  code: string;
  country: string;
  /** The form's name as the department writes it. */
  form: string;
  name: string;
  authority: TAuthority;
  frequency: TRecurringFrequency;
  /** The usual due date of a period's filing. */
  due: TDueDateRule;
  /** A different rule for the period ending in this calendar month (1-12), e.g. TDS's Q4. */
  dueByPeriodEndMonth?: Readonly<Partial<Record<number, TDueDateRule>>>;
  appliesTo: TApplicability;
  /** One line for people: whom it is for and when. */
  description: string;
};

export type TCountryCatalogue = {
  country: string;
  name: string;
  fiscalYearStartMonth: number;
  filings: readonly TFiling[];
};

const GST_RETURNS: TFiling[] = [
  {
    code: 'IN.GSTR1.M',
    country: 'IN',
    form: 'GSTR-1',
    name: 'GSTR-1 (monthly)',
    authority: 'GST',
    frequency: 'monthly',
    due: { dayOfMonth: 11, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['regular'] },
    description: 'Outward supplies, by the 11th of the next month (regular taxpayers).',
  },
  {
    code: 'IN.GSTR1.Q',
    country: 'IN',
    form: 'GSTR-1',
    name: 'GSTR-1 (quarterly, QRMP)',
    authority: 'GST',
    frequency: 'quarterly',
    due: { dayOfMonth: 13, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['qrmp'] },
    description: 'Outward supplies of a QRMP taxpayer, by the 13th after the quarter.',
  },
  {
    code: 'IN.GSTR3B.M',
    country: 'IN',
    form: 'GSTR-3B',
    name: 'GSTR-3B (monthly)',
    authority: 'GST',
    frequency: 'monthly',
    due: { dayOfMonth: 20, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['regular'] },
    description: 'Summary return and tax payment, by the 20th of the next month (regular taxpayers).',
  },
  {
    code: 'IN.GSTR3B.Q.A',
    country: 'IN',
    form: 'GSTR-3B',
    name: 'GSTR-3B (quarterly, QRMP, 22nd)',
    authority: 'GST',
    frequency: 'quarterly',
    due: { dayOfMonth: 22, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['qrmp'], gstStateCategory: 'A' },
    description: 'QRMP summary return, by the 22nd after the quarter (category A states, e.g. Maharashtra).',
  },
  {
    code: 'IN.GSTR3B.Q.B',
    country: 'IN',
    form: 'GSTR-3B',
    name: 'GSTR-3B (quarterly, QRMP, 24th)',
    authority: 'GST',
    frequency: 'quarterly',
    due: { dayOfMonth: 24, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['qrmp'], gstStateCategory: 'B' },
    description: 'QRMP summary return, by the 24th after the quarter (category B states, e.g. Delhi).',
  },
  {
    code: 'IN.CMP08',
    country: 'IN',
    form: 'CMP-08',
    name: 'CMP-08 (composition, quarterly)',
    authority: 'GST',
    frequency: 'quarterly',
    due: { dayOfMonth: 18, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['composition'] },
    description: 'Composition taxpayer’s statement and payment, by the 18th after the quarter.',
  },
  {
    code: 'IN.GSTR4',
    country: 'IN',
    form: 'GSTR-4',
    name: 'GSTR-4 (composition, annual)',
    authority: 'GST',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 1 },
    appliesTo: { gstSchemes: ['composition'] },
    description: 'Composition taxpayer’s annual return, by 30 April after the year.',
  },
  {
    code: 'IN.GSTR9',
    country: 'IN',
    form: 'GSTR-9',
    name: 'GSTR-9 (annual return)',
    authority: 'GST',
    frequency: 'yearly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 9 },
    appliesTo: { gstSchemes: ['regular', 'qrmp'], turnoverBands: ['2cr_to_5cr', 'over_5cr'] },
    description: 'GST annual return, by 31 December after the year (optional up to ₹2 crore).',
  },
  {
    code: 'IN.GSTR9C',
    country: 'IN',
    form: 'GSTR-9C',
    name: 'GSTR-9C (reconciliation statement)',
    authority: 'GST',
    frequency: 'yearly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 9 },
    appliesTo: { gstSchemes: ['regular', 'qrmp'], turnoverBands: ['over_5cr'] },
    description: 'Self-certified reconciliation, with GSTR-9, when turnover is over ₹5 crore.',
  },
];

const INCOME_TAX: TFiling[] = [
  {
    code: 'IN.TDS.24Q',
    country: 'IN',
    form: '24Q',
    name: 'TDS return 24Q (salaries)',
    authority: 'TDS/TCS',
    frequency: 'quarterly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 1 },
    dueByPeriodEndMonth: { 3: { dayOfMonth: 31, monthsAfterPeriod: 2 } },
    appliesTo: { tan: true },
    description: 'Quarterly TDS on salaries: 31 July, 31 October, 31 January and 31 May.',
  },
  {
    code: 'IN.TDS.26Q',
    country: 'IN',
    form: '26Q',
    name: 'TDS return 26Q (other than salaries)',
    authority: 'TDS/TCS',
    frequency: 'quarterly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 1 },
    dueByPeriodEndMonth: { 3: { dayOfMonth: 31, monthsAfterPeriod: 2 } },
    appliesTo: { tan: true },
    description: 'Quarterly TDS on other payments: 31 July, 31 October, 31 January and 31 May.',
  },
  {
    code: 'IN.TCS.27EQ',
    country: 'IN',
    form: '27EQ',
    name: 'TCS return 27EQ',
    authority: 'TDS/TCS',
    frequency: 'quarterly',
    due: { dayOfMonth: 15, monthsAfterPeriod: 1 },
    dueByPeriodEndMonth: { 3: { dayOfMonth: 15, monthsAfterPeriod: 2 } },
    appliesTo: { tan: true, collectsTcs: true },
    description: 'Quarterly tax collected at source: 15 July, 15 October, 15 January and 15 May.',
  },
  {
    code: 'IN.TDS.DEPOSIT',
    country: 'IN',
    form: 'Challan ITNS 281',
    name: 'TDS/TCS deposit (monthly)',
    authority: 'TDS/TCS',
    frequency: 'monthly',
    due: { dayOfMonth: 7, monthsAfterPeriod: 1 },
    // Rule 30: the tax deducted in March is deposited by 30 April.
    dueByPeriodEndMonth: { 3: { dayOfMonth: 30, monthsAfterPeriod: 1 } },
    appliesTo: { tan: true },
    description:
      'Tax deducted or collected in a month, deposited by the 7th of the next (March’s by 30 April).',
  },
  {
    code: 'IN.ADVTAX',
    country: 'IN',
    form: 'Challan 280',
    name: 'Advance tax instalment',
    authority: 'Income tax',
    frequency: 'quarterly',
    due: { dayOfMonth: 15, monthsAfterPeriod: 0 },
    appliesTo: { pan: true },
    description: 'Advance tax: 15 June, 15 September, 15 December and 15 March.',
  },
  {
    code: 'IN.ITR.NONAUDIT',
    country: 'IN',
    form: 'ITR',
    name: 'Income-tax return (non-audit)',
    authority: 'Income tax',
    frequency: 'yearly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 4 },
    appliesTo: { pan: true, itrCategory: 'non_audit' },
    description: 'Return of income for those not audited, by 31 July.',
  },
  {
    code: 'IN.ITR.AUDIT',
    country: 'IN',
    form: 'ITR',
    name: 'Income-tax return (audit cases)',
    authority: 'Income tax',
    frequency: 'yearly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 7 },
    appliesTo: { pan: true, itrCategory: 'audit' },
    description: 'Return of income of companies and those under tax audit, by 31 October.',
  },
  {
    code: 'IN.ITR.TP',
    country: 'IN',
    form: 'ITR',
    name: 'Income-tax return (transfer pricing)',
    authority: 'Income tax',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 8 },
    appliesTo: { pan: true, itrCategory: 'transfer_pricing' },
    description: 'Return of income with an international or specified domestic transaction, by 30 November.',
  },
  {
    code: 'IN.TAR',
    country: 'IN',
    form: 'Form 3CA/3CB-3CD',
    name: 'Tax audit report',
    authority: 'Income tax',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 6 },
    appliesTo: { taxAudit: true },
    description: 'Tax audit report under section 44AB, by 30 September.',
  },
];

const ROC: TFiling[] = [
  {
    code: 'IN.ROC.AOC4',
    country: 'IN',
    form: 'AOC-4',
    name: 'AOC-4 (financial statements)',
    authority: 'MCA',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 7 },
    appliesTo: { cin: true },
    description: 'Company’s financial statements, within 30 days of the AGM: by 30 October.',
  },
  {
    code: 'IN.ROC.MGT7',
    country: 'IN',
    form: 'MGT-7',
    name: 'MGT-7 (annual return)',
    authority: 'MCA',
    frequency: 'yearly',
    due: { dayOfMonth: 29, monthsAfterPeriod: 8 },
    appliesTo: { cin: true },
    description: 'Company’s annual return, within 60 days of the AGM: by 29 November.',
  },
  {
    code: 'IN.ROC.LLP11',
    country: 'IN',
    form: 'Form 11',
    name: 'LLP Form 11 (annual return)',
    authority: 'MCA',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 2 },
    appliesTo: { llpin: true },
    description: 'LLP’s annual return, by 30 May.',
  },
  {
    code: 'IN.ROC.LLP8',
    country: 'IN',
    form: 'Form 8',
    name: 'LLP Form 8 (statement of account and solvency)',
    authority: 'MCA',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 7 },
    appliesTo: { llpin: true },
    description: 'LLP’s statement of account and solvency, by 30 October.',
  },
];

export const INDIA: TCountryCatalogue = {
  country: 'IN',
  name: 'India',
  fiscalYearStartMonth: 4,
  filings: [...GST_RETURNS, ...INCOME_TAX, ...ROC],
};

/** One version of the catalogue as a release shipped it. */
export type TCatalogueRelease = {
  version: string;
  /** What the release changes, in a sentence for the firm's review. */
  notes: string;
  countries: Readonly<Record<string, TCountryCatalogue>>;
};

/** Filings a release added, absent from the releases before it. */
const ADDED_IN_2026_2 = ['IN.TDS.DEPOSIT'];

/**
 * Every version shipped, oldest first; the last is the current one. A firm created before a release
 * stays on its version (orgs.statutory_catalogue_version) until it accepts the new one.
 */
export const CATALOGUE_RELEASES: readonly TCatalogueRelease[] = [
  {
    version: '2026.1',
    notes: 'The first statutory catalogue: GST, TDS/TCS, income tax and ROC filings.',
    countries: { IN: { ...INDIA, filings: INDIA.filings.filter((f) => !ADDED_IN_2026_2.includes(f.code)) } },
  },
  {
    version: '2026.2',
    notes: 'Adds the monthly deposit of TDS/TCS (challan ITNS 281) for every client with a TAN.',
    countries: { IN: INDIA },
  },
];

/** The version every firm had before versions were stored (the column's default). */
export const FIRST_CATALOGUE_VERSION = '2026.1';

export const CATALOGUE: TCatalogueRelease = CATALOGUE_RELEASES[
  CATALOGUE_RELEASES.length - 1
] as TCatalogueRelease;
export const CATALOGUE_VERSION = CATALOGUE.version;

/** The release of a version; an unknown one (never shipped) reads as the current. */
export function catalogueRelease(
  version: string | null | undefined,
  releases: readonly TCatalogueRelease[] = CATALOGUE_RELEASES,
): TCatalogueRelease {
  return releases.find((r) => r.version === version) ?? releases[releases.length - 1] ?? CATALOGUE;
}

/** The releases after `version` up to the current one: what a firm on `version` has not reviewed. */
export function releasesAfter(
  version: string,
  releases: readonly TCatalogueRelease[] = CATALOGUE_RELEASES,
): TCatalogueRelease[] {
  const at = releases.findIndex((r) => r.version === version);
  return at < 0 ? [] : releases.slice(at + 1);
}

export const filingsOf = (release: TCatalogueRelease): readonly TFiling[] =>
  Object.values(release.countries).flatMap((c) => c.filings);

/** The current release's filings. */
export const ALL_FILINGS: readonly TFiling[] = filingsOf(CATALOGUE);
/** Every code any release has used, the current ones first (a code is never reused for another filing). */
export const FILING_CODES = [
  ...new Set([CATALOGUE, ...CATALOGUE_RELEASES].flatMap((r) => filingsOf(r).map((f) => f.code))),
] as readonly string[];

/** The filing with this code in a release (the current one by default). */
export function findFiling(
  code: string | null | undefined,
  release: TCatalogueRelease = CATALOGUE,
): TFiling | null {
  return (code && filingsOf(release).find((f) => f.code === code)) || null;
}

/** Why a filing is refused to a firm whose accepted version of the catalogue lacks it. */
export const notInReleaseMessage = (code: string, release: TCatalogueRelease) =>
  `${findFiling(code)?.name ?? code} is not in your firm’s version of the statutory catalogue (${release.version}): review and accept the newer version first`;

export function countryOfFiling(filing: TFiling): TCountryCatalogue {
  const country = CATALOGUE.countries[filing.country];
  if (!country) throw new Error(`no catalogue for ${filing.country}`);
  return country;
}
