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

/** The filing's period with this key ('2026-03', '2026-Q1', 'FY2026-27'), or null when it is not one. */
export function filingPeriodByKey(filing: TFiling, key: string): TPeriod | null {
  const fyMonth = countryOfFiling(filing).fiscalYearStartMonth;
  const pad = (n: number) => String(n).padStart(2, '0');
  let day: string | null = null;
  const monthly = /^(\d{4})-(\d{2})$/.exec(key);
  const part = /^(\d{4})-([QH])([1-4])$/.exec(key);
  const fy = /^FY(\d{4})-\d{2}$/.exec(key) ?? /^(\d{4})$/.exec(key);
  if (monthly) day = `${monthly[1]}-${monthly[2]}-01`;
  else if (part) {
    const months = (Number(part[3]) - 1) * (part[2] === 'Q' ? 3 : 6);
    const index = fyMonth - 1 + months;
    day = `${Number(part[1]) + Math.floor(index / 12)}-${pad((index % 12) + 1)}-01`;
  } else if (fy) day = `${fy[1]}-${pad(fyMonth)}-01`;
  if (!day || Number(day.slice(5, 7)) < 1 || Number(day.slice(5, 7)) > 12) return null;
  const period = periodContaining(filing.frequency, fyMonth, day);
  return period.key === key ? period : null;
}

/** The first due date on or after `today` (this fiscal year's periods, then the next year's). */
export function nextFilingDue(
  filing: TFiling,
  today: string,
): { periodKey: string; periodLabel: string; due: string } | null {
  const start = filingPeriodContaining(filing, today);
  const fyStart =
    Number(start.start.slice(0, 4)) -
    (Number(start.start.slice(5, 7)) < countryOfFiling(filing).fiscalYearStartMonth ? 1 : 0);
  for (const year of [fyStart - 1, fyStart, fyStart + 1]) {
    for (const o of filingYear(filing, year)) {
      if (o.due >= today) return { periodKey: o.period.key, periodLabel: o.period.label, due: o.due };
    }
  }
  return null;
}
