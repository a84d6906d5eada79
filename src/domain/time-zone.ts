/** How far a time zone is ahead of UTC at an instant, in milliseconds. */
export function timeZoneOffsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a calendar day ('YYYY-MM-DD') starts in a time zone; the next day's start ends it. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  // Twice: the first guess can land on the other side of a daylight-saving change.
  let at = wall - timeZoneOffsetMs(new Date(wall), timeZone);
  at = wall - timeZoneOffsetMs(new Date(at), timeZone);
  return new Date(at);
}

/** The last millisecond of a calendar day in a time zone. */
export function endOfDayIn(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const next = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
  return new Date(startOfDayIn(next, timeZone).getTime() - 1);
}
