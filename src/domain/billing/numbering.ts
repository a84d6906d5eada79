// Invoice numbers: a series prefix, the fiscal year and a running number (INV/2026-27/0001). The
// running number restarts each fiscal year; credit notes have their own series (CN/2026-27/0001).

/** The fiscal year a date falls in: "2026-27" when it starts in April, "2026" when in January. */
export function fiscalYearLabel(isoDate: string, startMonth: number): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  if (startMonth <= 1) return String(year);
  const first = month >= startMonth ? year : year - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}

export function formatInvoiceNumber(prefix: string, fiscalYear: string, seq: number, digits: number): string {
  return `${prefix}/${fiscalYear}/${String(seq).padStart(digits, '0')}`;
}
