import { addDaysIso, todayIn } from '../../domain/periods';

/** The reports' tests read last month and this one (UTC): both are whole months on any day. */
export function lastAndThisMonth() {
  const today = todayIn('UTC');
  const monthStart = `${today.slice(0, 7)}-01`;
  const prevMonthStart = `${addDaysIso(monthStart, -1).slice(0, 7)}-01`;
  const monthEnd = addDaysIso(`${addDaysIso(monthStart, 32).slice(0, 7)}-01`, -1);
  return { today, monthStart, prevMonthStart, monthEnd, period: { from: prevMonthStart, to: monthEnd } };
}
