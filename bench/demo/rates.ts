import type { TDemoCatalogue } from './catalogue';
import type { TDemoPerson } from './people';
import type { TPersonSession } from './session';

// How the firm bills and approves time, set up by its owner before the first week: an hourly
// billing and cost rate for each person by role (in paise), a higher rate for audit work, and the
// approval rules on Firm settings (the admin approves the approvers' weeks, a day past ten hours is
// flagged).

const BILL_BY_ROLE: Record<TDemoPerson['role'], number> = {
  Owner: 500_000,
  Admin: 200_000,
  Manager: 300_000,
  Staff: 150_000,
};
const COST_BY_ROLE: Record<TDemoPerson['role'], number> = {
  Owner: 250_000,
  Admin: 90_000,
  Manager: 120_000,
  Staff: 50_000,
};
const SERVICE_RATES: Record<string, number> = { AUDIT: 400_000 };
const DAILY_LIMIT_MINUTES = 10 * 60;

export async function setUpTimeRules(
  owner: TPersonSession,
  people: TDemoPerson[],
  catalogue: TDemoCatalogue,
) {
  for (const p of people) {
    await owner.api.timesheets.rates.set({ kind: 'member', refId: p.memberId, rate: BILL_BY_ROLE[p.role] });
    await owner.api.timesheets.rates.set({ kind: 'cost', refId: p.memberId, rate: COST_BY_ROLE[p.role] });
  }
  for (const service of catalogue.services) {
    const rate = SERVICE_RATES[service.code];
    if (rate) await owner.api.timesheets.rates.set({ kind: 'service', refId: service.id, rate });
  }
  const admin = people.find((p) => p.role === 'Admin');
  if (!admin) throw new Error('demo admin missing');
  await owner.api.timesheets.setApprovalSettings({
    dailyLimitMinutes: DAILY_LIMIT_MINUTES,
    approversApproverId: admin.memberId,
  });
}

/**
 * Who approves each member's timesheet, as the firm's rule has it: a preparer's manager, and for
 * those who approve (the owner, the admin, the managers) the admin, who approves the approvers;
 * the admin's own week goes to the owner.
 */
export function timesheetApproversOf(people: TDemoPerson[], managers: Map<string, TDemoPerson>) {
  const owner = people.find((p) => p.role === 'Owner');
  const admin = people.find((p) => p.role === 'Admin');
  if (!owner || !admin) throw new Error('demo people missing');
  const of = new Map<string, TDemoPerson>();
  for (const p of people) {
    if (p.role === 'Staff') of.set(p.memberId, managers.get(p.memberId) ?? owner);
    else of.set(p.memberId, p.memberId === admin.memberId ? owner : admin);
  }
  return of;
}
