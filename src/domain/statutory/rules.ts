import { addDays } from '../days';
import { dueDateFor, periodContaining, periodsBetween, type TPeriod } from '../periods';
import type { TDueDateRule } from '../services';
import {
  ALL_FILINGS,
  countryOfFiling,
  gstStateCategory,
  type TApplicability,
  type TFiling,
  type TItrCategory,
  type TRegistrationFacts,
} from './catalogue';

// Due dates and applicability: pure functions over the catalogue.

/** The rule for the period that ends on `periodEnd` ('YYYY-MM-DD'). */
export function filingRuleFor(filing: TFiling, periodEnd: string): TDueDateRule {
  const month = Number(periodEnd.slice(5, 7));
  return filing.dueByPeriodEndMonth?.[month] ?? filing.due;
}

/** The statutory due date of the filing for the period ending on `periodEnd`. */
export function filingDueDate(filing: TFiling, periodEnd: string): string {
  return dueDateFor(periodEnd, filingRuleFor(filing, periodEnd));
}

/** The filing's periods of the fiscal year starting in `startYear` (in its country's fiscal year). */
export function filingPeriods(filing: TFiling, startYear: number): TPeriod[] {
  const month = countryOfFiling(filing).fiscalYearStartMonth;
  const start = `${startYear}-${String(month).padStart(2, '0')}-01`;
  const end = addDays(`${startYear + 1}-${String(month).padStart(2, '0')}-01`, -1);
  return periodsBetween(filing.frequency, month, start, end);
}

/** The filing's period containing `day`. */
export function filingPeriodContaining(filing: TFiling, day: string): TPeriod {
  return periodContaining(filing.frequency, countryOfFiling(filing).fiscalYearStartMonth, day);
}

export type TFilingOccurrence = { filing: TFiling; period: TPeriod; due: string };

/** Every period of the fiscal year with its due date. */
export function filingYear(filing: TFiling, startYear: number): TFilingOccurrence[] {
  return filingPeriods(filing, startYear).map((period) => ({
    filing,
    period,
    due: filingDueDate(filing, period.end),
  }));
}

/** The ITR's category: transfer pricing, else audit (a company always is), else non-audit. */
export function itrCategory(facts: TRegistrationFacts): TItrCategory {
  if (facts.transferPricing) return 'transfer_pricing';
  if (facts.taxAudit || facts.clientType === 'company') return 'audit';
  return 'non_audit';
}

function holds(rule: TApplicability, facts: TRegistrationFacts): boolean {
  if (rule.gstSchemes && !(facts.gstin && facts.gstScheme && rule.gstSchemes.includes(facts.gstScheme)))
    return false;
  if (rule.gstStateCategory) {
    const state = facts.gstState ?? facts.gstin?.slice(0, 2) ?? null;
    if (!state || gstStateCategory(state) !== rule.gstStateCategory) return false;
  }
  if (rule.turnoverBands && facts.turnoverBand && !rule.turnoverBands.includes(facts.turnoverBand))
    return false;
  if (rule.pan && !facts.pan) return false;
  if (rule.tan && !facts.tan) return false;
  if (rule.cin && !facts.cin) return false;
  if (rule.llpin && !facts.llpin) return false;
  if (rule.taxAudit && !facts.taxAudit) return false;
  if (rule.collectsTcs && !facts.collectsTcs) return false;
  if (rule.itrCategory && itrCategory(facts) !== rule.itrCategory) return false;
  if (rule.clientTypes && !rule.clientTypes.includes(facts.clientType)) return false;
  return true;
}

/** The filings a client with these registrations must make, in catalogue order. */
export function applicableFilings(
  facts: TRegistrationFacts,
  filings: readonly TFiling[] = ALL_FILINGS,
): TFiling[] {
  return filings.filter((f) => holds(f.appliesTo, facts));
}
