import { addDays } from '../../src/domain/days';
import { rng } from '../generate-util';
import { hashOf, inMumbai, isoWeekday } from './calendar';
import type { TDemoClient } from './clients';
import type { TDemoPerson } from './people';

// One person's day in the week grid: the hours the product expects of them that day, give or take
// (six to eight and a half on a full day, longer in the days before the GST and year-end deadlines),
// over the tasks they have due in the coming days, the clients they look after, and the firm's own
// time (the Monday team meeting, training, the admin's billing), which carries the note the grid
// asks for. Time for a client is billable as the product defaults it; the admin's fee follow-ups
// are marked not billable.

export type TCandidateTask = {
  memberId: string;
  id: string;
  clientId: string | null;
  due: string;
  completedAt: Date | null;
};

export type TMemberClients = (memberId: string) => TDemoClient[];

/**
 * What client time outside a task is for, as the grid's service column says: the owner's advice
 * goes to the clients she advises by the hour (Advisory), everyone else's to the service of the
 * client's they work on (its fixed fee covers it). Time for a client with no engagement has none.
 */
export type TClientWork = {
  serviceOf: (clientId: string, role: TDemoPerson['role']) => string | null;
  advised: TDemoClient[];
};

type TCellInput = {
  date: string;
  minutes: number;
  taskId?: string;
  clientId?: string;
  serviceId?: string | null;
  note: string;
};

export type TCell = {
  minutes: number;
  nonBillable?: boolean;
  /** The grid's call for this row and day with `minutes` in it. */
  input: (minutes: number) => TCellInput;
};

const TRAINING = [
  'Webinar: GST council changes this month',
  'Reading the new TDS rate circular',
  'ICAI CPE session on Ind AS',
  'Training: filing on the new income-tax portal',
];
const PRACTICE = [
  'Practice management: fee proposals',
  'Practice management: reviewing the team’s workload',
  'Business development: meeting a referral partner',
  'Practice management: quality review of filed returns',
];
const ADMIN = [
  'Billing and collections',
  'Payroll and HR',
  'Office administration and vendor payments',
  'Billing: raising this month’s invoices',
];
const CLIENT_WORK: Record<TDemoPerson['role'], string[]> = {
  Owner: [
    'Meeting with the promoter on the year’s tax plan',
    'Call on the notice from the tax department',
    'Advisory: restructuring of the family business',
  ],
  Admin: ['Fee follow-up', 'Fee follow-up and statement of account'],
  Manager: [
    'Reviewing the books before the return',
    'Client call on pending documents',
    'Going through the team’s working papers',
  ],
  Staff: [
    'Bookkeeping for the month',
    'Replying to the client’s queries',
    'Bank reconciliation',
    'Collecting documents from the client',
  ],
};

const quarter = (minutes: number) => Math.max(0, Math.round(minutes / 15) * 15);

/** The days before a deadline: the GST returns each month, the returns in July, audits in September. */
function crunch(day: string) {
  const date = Number(day.slice(8, 10));
  const month = Number(day.slice(5, 7));
  return (date >= 14 && date <= 20) || ((month === 7 || month === 9 || month === 10) && date >= 20);
}

/** The rows and hours `person` records for `day`, when the product expects `expected` minutes. */
export function dayOfWork(
  person: TDemoPerson,
  day: string,
  expected: number,
  tasks: TCandidateTask[],
  clientsOf: TMemberClients,
  work: TClientWork,
): TCell[] {
  const random = rng(hashOf(`${person.memberId}:${day}`));
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  let total = quarter(expected * (0.8 + 0.26 * random()));
  if (crunch(day) && expected >= 360 && random() < 0.35) total = quarter(expected * (1.05 + 0.15 * random()));
  total = Math.min(total, 600);
  const cells: TCell[] = [];
  const internal = (minutes: number, note: string) =>
    cells.push({ minutes, input: (m) => ({ date: day, minutes: m, note }) });

  // The firm's own time: one row a day.
  const full = expected >= 360;
  if (person.role === 'Owner') internal(quarter(60 + random() * 60), pick(PRACTICE));
  else if (person.role === 'Admin') internal(quarter(total * (0.45 + 0.2 * random())), pick(ADMIN));
  else if (isoWeekday(day) === 1 && full) internal(random() < 0.5 ? 30 : 45, 'Weekly team meeting');
  else if (full && random() < 0.1) internal(quarter(45 + random() * 45), pick(TRAINING));

  // The tasks due in the next days that are not done yet, the nearest first.
  const dayStart = inMumbai(day, '00:00');
  const horizon = addDays(day, 12);
  const open = tasks.filter(
    (t) =>
      t.memberId === person.memberId &&
      t.due >= day &&
      t.due <= horizon &&
      (!t.completedAt || t.completedAt >= dayStart),
  );
  const taskRows = person.role === 'Staff' ? 1 + Math.floor(random() * 3) : person.role === 'Manager' ? 2 : 1;
  const chosen: TCandidateTask[] = [];
  for (const t of open) {
    if (chosen.length >= taskRows) break;
    if (random() < 0.7) chosen.push(t);
  }
  const clientsUsed = new Set<string>();
  const rows: TCell[] = chosen.map((t) => {
    if (t.clientId) clientsUsed.add(t.clientId);
    return { minutes: 0, input: (m) => ({ date: day, minutes: m, taskId: t.id, note: '' }) };
  });
  // Client time outside a task: the owner's meetings, the managers' reviews, the admin's fee
  // follow-ups, and whatever a preparer does for a client when no task is due.
  const clientRows =
    person.role === 'Owner' || person.role === 'Admin'
      ? 1 + Math.floor(random() * 2)
      : person.role === 'Manager'
        ? 1
        : rows.length
          ? 0
          : 1 + Math.floor(random() * 2);
  const mine = clientsOf(person.memberId);
  for (let i = 0; i < clientRows && mine.length; i++) {
    // Most of the owner's client time is advice to the clients she advises.
    const advising = person.role === 'Owner' && work.advised.length > 0 && random() < 0.6;
    const client = pick(advising ? work.advised : mine);
    if (clientsUsed.has(client.id)) continue;
    clientsUsed.add(client.id);
    const note = pick(CLIENT_WORK[person.role]);
    const serviceId = work.serviceOf(client.id, person.role);
    rows.push({
      minutes: 0,
      nonBillable: person.role === 'Admin',
      input: (m) => ({ date: day, minutes: m, clientId: client.id, serviceId, note }),
    });
  }
  const own = cells.reduce((s, c) => s + c.minutes, 0);
  let left = total - own;
  if (!rows.length) {
    const first = cells[0];
    if (first) first.minutes = Math.min(600, first.minutes + Math.max(0, left));
    return cells.filter((c) => c.minutes > 0);
  }
  const weights = rows.map(() => 1 + random() * 2);
  const sum = weights.reduce((s, w) => s + w, 0);
  rows.forEach((row, i) => {
    const last = i === rows.length - 1;
    const share = last ? left : Math.max(30, quarter((total - own) * ((weights[i] as number) / sum)));
    row.minutes = Math.min(share, left);
    left -= row.minutes;
  });
  return [...cells, ...rows].filter((c) => c.minutes >= 15);
}
