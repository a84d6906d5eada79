import { addDays } from '../../src/domain/days';

// The firm's holidays: Maharashtra's public holidays, as the firm imports them each year from the
// state's list on the holidays screen (a CSV of date, name and part). Festivals move with the lunar
// calendar, so their dates are those of the published lists (2025, 2026) and the expected ones
// (2027); any other year has the holidays on fixed dates and Good Friday. The firm also closes at
// lunch on Dhanteras, a half day.

const FESTIVALS: Record<number, Array<[string, string]>> = {
  2025: [
    ['02-26', 'Mahashivratri'],
    ['03-14', 'Holi'],
    ['03-30', 'Gudhi Padwa'],
    ['03-31', 'Ramzan Id'],
    ['04-06', 'Ram Navami'],
    ['04-10', 'Mahavir Jayanti'],
    ['05-12', 'Buddha Purnima'],
    ['06-07', 'Bakri Id'],
    ['07-06', 'Muharram'],
    ['08-27', 'Ganesh Chaturthi'],
    ['09-05', 'Id-e-Milad'],
    ['10-02', 'Dussehra'],
    ['10-21', 'Diwali (Lakshmi Pujan)'],
    ['10-22', 'Diwali (Balipratipada)'],
    ['11-05', 'Guru Nanak Jayanti'],
  ],
  2026: [
    ['02-15', 'Mahashivratri'],
    ['03-03', 'Holi'],
    ['03-20', 'Gudhi Padwa'],
    ['03-21', 'Ramzan Id'],
    ['03-27', 'Ram Navami'],
    ['03-31', 'Mahavir Jayanti'],
    ['05-01', 'Buddha Purnima'],
    ['05-27', 'Bakri Id'],
    ['06-26', 'Muharram'],
    ['08-25', 'Id-e-Milad'],
    ['09-14', 'Ganesh Chaturthi'],
    ['10-20', 'Dussehra'],
    ['11-08', 'Diwali (Lakshmi Pujan)'],
    ['11-09', 'Diwali (Balipratipada)'],
    ['11-24', 'Guru Nanak Jayanti'],
  ],
  2027: [
    ['03-06', 'Mahashivratri'],
    ['03-10', 'Ramzan Id'],
    ['03-22', 'Holi'],
    ['04-07', 'Gudhi Padwa'],
    ['04-15', 'Ram Navami'],
    ['04-18', 'Mahavir Jayanti'],
    ['05-17', 'Bakri Id'],
    ['05-20', 'Buddha Purnima'],
    ['06-15', 'Muharram'],
    ['08-14', 'Id-e-Milad'],
    ['09-04', 'Ganesh Chaturthi'],
    ['10-09', 'Dussehra'],
    ['10-29', 'Diwali (Lakshmi Pujan)'],
    ['10-30', 'Diwali (Balipratipada)'],
    ['11-14', 'Guru Nanak Jayanti'],
  ],
};

const DHANTERAS: Record<number, string> = { 2025: '10-18', 2026: '11-06', 2027: '10-27' };

const FIXED: Array<[string, string]> = [
  ['01-26', 'Republic Day'],
  ['02-19', 'Chhatrapati Shivaji Maharaj Jayanti'],
  ['04-14', 'Dr. Babasaheb Ambedkar Jayanti'],
  ['05-01', 'Maharashtra Day'],
  ['08-15', 'Independence Day'],
  ['10-02', 'Mahatma Gandhi Jayanti'],
  ['12-25', 'Christmas'],
];

/** Easter Sunday of a year (the Gregorian computus). */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export type TDemoHoliday = { date: string; name: string; part: 'full' | 'second_half' };

/** A year's holidays, one a day (two on one day share it: "Maharashtra Day / Buddha Purnima"). */
export function holidaysOf(year: number): TDemoHoliday[] {
  const byDate = new Map<string, string[]>();
  const add = (date: string, name: string) => byDate.set(date, [...(byDate.get(date) ?? []), name]);
  for (const [md, name] of FIXED) add(`${year}-${md}`, name);
  add(addDays(easter(year), -2), 'Good Friday');
  for (const [md, name] of FESTIVALS[year] ?? []) add(`${year}-${md}`, name);
  const list: TDemoHoliday[] = [...byDate].map(([date, names]) => ({
    date,
    name: names.join(' / '),
    part: 'full',
  }));
  const dhanteras = DHANTERAS[year];
  if (dhanteras)
    list.push({
      date: `${year}-${dhanteras}`,
      name: 'Dhanteras (office closes at lunch)',
      part: 'second_half',
    });
  return list.sort((x, y) => x.date.localeCompare(y.date));
}

/** The year's list as the CSV the holidays screen imports. */
export function holidayCsv(year: number): string {
  const lines = holidaysOf(year).map(
    (h) => `${h.date},${h.name},${h.part === 'full' ? 'full' : 'second half'}`,
  );
  return ['date,name,part', ...lines].join('\n');
}
