// Time zones by name, apart from format.ts (which needs date-fns): the firm's region schema
// (onboarding.ts) checks a zone with these, and it is part of every first page's route tree.

/** A zone Intl can show times in (new Intl.DateTimeFormat throws a RangeError for any other). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * ICU, and so every browser, still answers some zones by names IANA has replaced: a firm in Mumbai
 * would read "Asia/Calcutta" on its screens and miss its country's default (Asia/Kolkata).
 */
const RENAMED_ZONES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** A zone by its current IANA name. */
export function modernTimeZone(zone: string): string {
  return RENAMED_ZONES[zone] ?? zone;
}
