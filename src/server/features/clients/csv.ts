import { type Stringifier, stringify } from 'csv-stringify';

/**
 * RFC 4180 CSV as spreadsheets read it: a BOM so they take UTF-8, CRLF, quoted fields where needed
 * and formulas neutralised. The export writes through this; an XLSX writer would sit beside it.
 */
export function csvWriter(headers: readonly string[]): Stringifier {
  return stringify({
    header: true,
    columns: headers.map((header, i) => ({ key: String(i), header })),
    bom: true,
    record_delimiter: 'windows',
    // RFC 4180 quotes a field holding a CR or LF; the library only quotes the whole CRLF by itself.
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  });
}

export const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80);
