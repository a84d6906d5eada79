import { filingsOf, type TCatalogueRelease, type TFiling } from './catalogue';
import { filingYear } from './rules';

// What a new release of the statutory catalogue changes against the version a firm accepted
// (issue 39): filings added, retired, or changed (due dates, frequency, who must file). Pure: the
// server adds the firm's side (its linked services, projects and clients) to each change.

export type TDueDateMove = { periodKey: string; periodLabel: string; from: string; to: string };

export type TFilingChange =
  | { kind: 'added'; code: string; filing: TFiling }
  | { kind: 'retired'; code: string; filing: TFiling }
  | {
      kind: 'changed';
      code: string;
      before: TFiling;
      filing: TFiling;
      /** The periods of the years looked at whose due date moves (same frequency only). */
      dueDates: TDueDateMove[];
      /** The frequency or a due-date rule differs: linked services take the new rule. */
      rule: boolean;
      frequency: boolean;
      appliesTo: boolean;
      /** The name, form or description reads differently. */
      wording: boolean;
    };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The filings that differ between two releases, in the newer release's order (retired ones last);
 * due-date moves are listed for the fiscal years starting in `fiscalYears`.
 */
export function catalogueChanges(
  from: TCatalogueRelease,
  to: TCatalogueRelease,
  fiscalYears: readonly number[],
): TFilingChange[] {
  const before = new Map(filingsOf(from).map((f) => [f.code, f]));
  const after = filingsOf(to);
  const changes: TFilingChange[] = [];
  for (const filing of after) {
    const old = before.get(filing.code);
    if (!old) {
      changes.push({ kind: 'added', code: filing.code, filing });
      continue;
    }
    const frequency = old.frequency !== filing.frequency;
    const dueDates: TDueDateMove[] = [];
    if (
      !frequency &&
      !(same(old.due, filing.due) && same(old.dueByPeriodEndMonth, filing.dueByPeriodEndMonth))
    )
      for (const year of fiscalYears) {
        const was = filingYear(old, year);
        filingYear(filing, year).forEach((o, i) => {
          const prior = was[i];
          if (prior && prior.period.key === o.period.key && prior.due !== o.due)
            dueDates.push({
              periodKey: o.period.key,
              periodLabel: o.period.label,
              from: prior.due,
              to: o.due,
            });
        });
      }
    const appliesTo = !same(old.appliesTo, filing.appliesTo);
    const wording =
      old.name !== filing.name || old.form !== filing.form || old.description !== filing.description;
    const ruleChanged =
      frequency || !same(old.due, filing.due) || !same(old.dueByPeriodEndMonth, filing.dueByPeriodEndMonth);
    if (ruleChanged || appliesTo || wording)
      changes.push({
        kind: 'changed',
        code: filing.code,
        before: old,
        filing,
        dueDates,
        rule: ruleChanged,
        frequency,
        appliesTo,
        wording,
      });
  }
  const kept = new Set(after.map((f) => f.code));
  for (const old of before.values())
    if (!kept.has(old.code)) changes.push({ kind: 'retired', code: old.code, filing: old });
  return changes;
}
