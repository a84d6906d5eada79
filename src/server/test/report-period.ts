import { addDays, todayIn } from '../../domain/days';
/** The reports' tests read last month and this one (UTC): both are whole months on any day. */
export function lastAndThisMonth() {
  const today = todayIn('UTC');
  const monthStart = `${today.slice(0, 7)}-01`;
  const prevMonthStart = `${addDays(monthStart, -1).slice(0, 7)}-01`;
  const monthEnd = addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1);
  return { today, monthStart, prevMonthStart, monthEnd, period: { from: prevMonthStart, to: monthEnd } };
}
