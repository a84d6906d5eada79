import { z } from 'zod';
import {
  ARCHIVED_FILTERS,
  CLIENT_SORTS,
  CLIENT_STATUSES,
  CLIENT_TYPE_LABELS,
  CLIENT_TYPES,
  MAX_TAGS,
  type TClientInput,
  type TClientStatus,
  type TClientType,
  ZClientInput,
  ZClientListInput,
  ZTag,
} from './clients';
import { zNumber } from './fields';
import { plainNumber } from './format';
import { taxIdKinds } from './settings';
import {
  type TGstScheme,
  type TTurnoverBand,
  TURNOVER_BAND_LABELS,
  TURNOVER_BANDS,
} from './statutory/catalogue';
import { gstinProblem, panProblem, tanProblem } from './statutory/identifiers';
import { type TRegistrations, ZRegistrations } from './statutory/registrations';

// Client import and export: the spreadsheet's columns, how a file's headers map onto them and how
// one row becomes a client. Shared by the server (which decides) and the web (which explains).

/** The upload limit: a 5,000-row book is well under 2 MB, so 10 MB leaves room for long notes. */
export const CLIENT_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const CLIENT_IMPORT_MAX_ROWS = 10_000;
/** Rows per import step: one transaction and one multi-row insert each. */
export const CLIENT_IMPORT_BATCH = 500;

export const CLIENT_IMPORT_UPLOAD_PATH = '/api/clients/import';
export const CLIENT_EXPORT_PATH = '/api/clients/export.csv';
export const CLIENT_EXPORT_XLSX_PATH = '/api/clients/export.xlsx';
export const clientImportErrorsPath = (importId: string) => `/api/clients/import/${importId}/errors.csv`;

export const IMPORT_FIELDS = [
  'code',
  'name',
  'type',
  'email',
  'phone',
  'addressLine1',
  'addressLine2',
  'city',
  'region',
  'postalCode',
  'country',
  'taxIds',
  'group',
  'tags',
  'status',
  'notes',
  // Statutory registrations (issue 39): PAN, TAN and GSTIN come in as tax identifiers.
  'gstScheme',
  'turnoverBand',
  'cin',
  'llpin',
  'taxAudit',
  'transferPricing',
  'collectsTcs',
] as const;
export type TImportField = (typeof IMPORT_FIELDS)[number];

/** The export's headers, which the import reads back as they are. */
export const FIELD_HEADERS: Record<TImportField, string> = {
  code: 'Code',
  name: 'Name',
  type: 'Type',
  email: 'Email',
  phone: 'Phone',
  addressLine1: 'Address line 1',
  addressLine2: 'Address line 2',
  city: 'City',
  region: 'Region',
  postalCode: 'Postal code',
  country: 'Country',
  taxIds: 'Tax IDs',
  group: 'Group',
  tags: 'Tags',
  status: 'Status',
  notes: 'Notes',
  gstScheme: 'GST scheme',
  turnoverBand: 'Turnover band',
  cin: 'CIN',
  llpin: 'LLPIN',
  taxAudit: 'Tax audit',
  transferPricing: 'Transfer pricing',
  collectsTcs: 'Collects TCS',
};

const SYNONYMS: Record<TImportField, string[]> = {
  code: ['code', 'clientcode', 'clientid', 'id', 'ref', 'reference', 'refno', 'clientno', 'clientnumber'],
  name: [
    'name',
    'clientname',
    'fullname',
    'client',
    'displayname',
    'companyname',
    'businessname',
    'customername',
    'legalname',
  ],
  type: ['type', 'clienttype', 'entitytype', 'constitution', 'category', 'entity'],
  email: ['email', 'emailaddress', 'mail', 'emailid', 'clientemail', 'primaryemail'],
  phone: [
    'phone',
    'phonenumber',
    'mobile',
    'mobileno',
    'mobilenumber',
    'telephone',
    'tel',
    'contactnumber',
    'contactno',
    'cell',
    'whatsapp',
    'phoneno',
  ],
  addressLine1: ['addressline1', 'address1', 'address', 'street', 'streetaddress', 'addressline'],
  addressLine2: ['addressline2', 'address2', 'area', 'locality'],
  city: ['city', 'town', 'district'],
  region: ['region', 'state', 'province', 'county', 'stateprovince'],
  postalCode: ['postalcode', 'postcode', 'pincode', 'pin', 'zip', 'zipcode'],
  country: ['country', 'countrycode'],
  taxIds: ['taxids', 'taxid', 'taxidentifiers', 'taxidentifier', 'taxnumbers', 'taxno'],
  group: ['group', 'groupname', 'clientgroup', 'family', 'businessgroup'],
  tags: ['tags', 'tag', 'labels', 'label'],
  status: ['status', 'clientstatus', 'active'],
  notes: ['notes', 'note', 'remarks', 'comments', 'comment', 'description'],
  gstScheme: ['gstscheme', 'scheme', 'gsttype', 'returnscheme', 'gstfiling'],
  turnoverBand: ['turnoverband', 'turnover', 'aggregateturnover'],
  cin: ['cin', 'cinno', 'companyid', 'corporateidentificationnumber'],
  llpin: ['llpin', 'llpinno', 'llpid'],
  taxAudit: ['taxaudit', 'audit', 'auditapplicable', '44ab'],
  transferPricing: ['transferpricing', 'tp'],
  collectsTcs: ['collectstcs', 'tcs'],
};

/** A header a person typed, reduced to what matters: "E-mail " and "email" read the same. */
export const normaliseHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const FIELD_BY_HEADER = new Map<string, TImportField>(
  IMPORT_FIELDS.flatMap((field) => SYNONYMS[field].map((h) => [h, field] as const)),
);

/** Tax identifier kinds a column may be named after ("PAN", "GSTIN No."). */
const KNOWN_TAX_KINDS = ['PAN', 'TAN', 'GSTIN', 'GST', 'EIN', 'SSN', 'UTR', 'VAT', 'ABN', 'TIN', 'CIN'];

export type TColumn = { field: TImportField } | { taxKind: string } | null;
export type THeaderMap = {
  columns: TColumn[];
  /** Headers that match no field: their cells are ignored, and the preview says so. */
  ignored: string[];
  /** A field two columns claim: the first wins. */
  repeated: string[];
};

/** Which field each column of the file holds, forgiving case, spacing, punctuation and synonyms. */
export function mapHeaders(headers: readonly string[]): THeaderMap {
  const seen = new Set<string>();
  const ignored: string[] = [];
  const repeated: string[] = [];
  const columns = headers.map((header): TColumn => {
    const key = normaliseHeader(header);
    const field = FIELD_BY_HEADER.get(key);
    const taxKind = field
      ? null
      : KNOWN_TAX_KINDS.find((k) => key === k.toLowerCase() || key === `${k.toLowerCase()}no`);
    const claim = field ?? (taxKind ? `tax:${taxKind}` : null);
    if (!claim) {
      if (header.trim()) ignored.push(header.trim());
      return null;
    }
    if (seen.has(claim)) {
      repeated.push(header.trim());
      return null;
    }
    seen.add(claim);
    return field ? { field } : { taxKind: taxKind === 'GST' ? 'GSTIN' : (taxKind as string) };
  });
  return { columns, ignored, repeated };
}

export const missingRequiredColumns = (map: THeaderMap) =>
  map.columns.some((c) => c && 'field' in c && c.field === 'name') ? [] : [FIELD_HEADERS.name];

/** One row's cells by field; per-kind tax columns are folded into `taxIds` as "KIND:VALUE". */
export type TRowValues = Partial<Record<TImportField, string>>;

export function rowValues(map: THeaderMap, cells: readonly string[]): TRowValues {
  const values: TRowValues = {};
  const taxes: string[] = [];
  map.columns.forEach((column, i) => {
    const cell = (cells[i] ?? '').trim();
    if (!column || !cell) return;
    if ('taxKind' in column) taxes.push(`${column.taxKind}:${cell}`);
    else values[column.field] = cell;
  });
  if (taxes.length) values.taxIds = [values.taxIds, ...taxes].filter(Boolean).join('; ');
  return values;
}

export const isBlankRow = (cells: readonly string[]) => cells.every((c) => !c.trim());

// ---- XLSX ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A cell as the text a CSV of the sheet would hold: numbers in plain digits (a phone stored as a
 * number must not come out as "9.87654321E9"), dates as YYYY-MM-DD (with the time when there is
 * one), rich text and links as their text, formulas as their last computed result. A number shown
 * with a zero-padding format ("00000", as for postal codes) keeps the zeros the sheet shows.
 */
export function cellText(value: unknown, numFmt?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    if (numFmt && /^0+$/.test(numFmt) && Number.isSafeInteger(value) && value >= 0) {
      return String(value).padStart(numFmt.length, '0');
    }
    // 15 significant digits is what Excel itself keeps; it drops binary noise like 0.1 + 0.2.
    return plainNumber(Number(value.toPrecision(15)));
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    // exceljs reads a sheet's wall-clock date and time as that instant in UTC.
    const iso = value.toISOString();
    const time = iso.slice(11, 19);
    if (time === '00:00:00') return iso.slice(0, 10);
    return `${iso.slice(0, 10)} ${time.endsWith(':00') ? time.slice(0, 5) : time}`;
  }
  if (!isObject(value)) return '';
  if (Array.isArray(value.richText)) {
    return value.richText
      .map((run) => (isObject(run) && typeof run.text === 'string' ? run.text : ''))
      .join('');
  }
  if (typeof value.hyperlink === 'string') {
    const text = cellText(value.text);
    return text || value.hyperlink.replace(/^mailto:/i, '');
  }
  if ('formula' in value || 'sharedFormula' in value || 'result' in value)
    return cellText(value.result, numFmt);
  if (typeof value.error === 'string') return value.error;
  return '';
}

// ---- CSV ----

/**
 * RFC 4180 CSV (quoted fields, doubled quotes, CRLF, LF or CR line ends). The delimiter is guessed
 * from the header line, since spreadsheets in many locales save with ";" (or tabs).
 */
export function parseCsv(text: string): string[][] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const delimiter = guessDelimiter(body);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
  };
  while (i < body.length) {
    const c = body[i];
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      endRecord();
      if (c === '\r' && body[i + 1] === '\n') i++;
    } else field += c;
    i++;
  }
  if (field !== '' || record.length) endRecord();
  return records;
}

function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.search(/\r|\n/)) || text.length);
  const count = (d: string) => firstLine.split(d).length - 1;
  const best = [',', ';', '\t'].map((d) => [d, count(d)] as const).sort((a, b) => b[1] - a[1])[0];
  return best && best[1] > 0 ? best[0] : ',';
}

// ---- one row ----

const TYPE_WORDS: Record<string, TClientType> = {
  ...Object.fromEntries(CLIENT_TYPES.map((t) => [t, t])),
  ...Object.fromEntries(CLIENT_TYPES.map((t) => [normaliseHeader(CLIENT_TYPE_LABELS[t]), t])),
  person: 'individual',
  proprietorship: 'proprietor',
  soleproprietor: 'proprietor',
  soleproprietorship: 'proprietor',
  firm: 'partnership',
  partnershipfirm: 'partnership',
  limitedliabilitypartnership: 'llp',
  pvtltd: 'company',
  privatelimited: 'company',
  privatelimitedcompany: 'company',
  publiclimited: 'company',
  ltd: 'company',
  limited: 'company',
  hinduundividedfamily: 'huf',
};

const STATUS_WORDS: Record<string, TClientStatus> = {
  active: 'active',
  inactive: 'inactive',
  yes: 'active',
  no: 'inactive',
  enabled: 'active',
  disabled: 'inactive',
};

const COUNTRY_ALIASES: Record<string, string> = { usa: 'US', uk: 'GB', uae: 'AE', greatbritain: 'GB' };
let countryNames: Map<string, string> | null = null;

/** "India", "in" or "UK" to the two-letter code the client form stores. */
export function countryCode(value: string): string | null {
  const key = normaliseHeader(value);
  if (COUNTRY_ALIASES[key]) return COUNTRY_ALIASES[key];
  if (/^[a-z]{2}$/.test(key)) return key.toUpperCase();
  if (!countryNames) {
    countryNames = new Map();
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code);
        // The first code wins: GB before the reserved UK, which also reads "United Kingdom".
        const nameKey = name && name !== code ? normaliseHeader(name) : null;
        if (nameKey && !countryNames.has(nameKey)) countryNames.set(nameKey, code);
      }
    }
  }
  return countryNames.get(key) ?? null;
}

const splitList = (value: string | undefined) =>
  (value ?? '')
    .split(/[;,\n|]/)
    .map((s) => s.trim())
    .filter(Boolean);

export type TRowMessage = { field: TImportField; message: string };

/** The key duplicate detection compares: same email, or the same tax identifier of the same kind. */
export const taxKey = (kind: string, value: string) =>
  `${kind.toUpperCase()}:${value.toUpperCase().replace(/\s+/g, '')}`;

export type TParsedRow =
  | {
      ok: true;
      input: TClientInput;
      generateCode: boolean;
      groupName: string | null;
      /** The statutory registrations the row names (null: none). */
      registrations: TRegistrations | null;
    }
  | { ok: false; messages: TRowMessage[] };

/** A placeholder that passes the code rule; the server replaces it with a generated code. */
const CODE_PLACEHOLDER = 'PENDING';

/**
 * One row's values as the client form's schema reads them. `groups` maps lower-cased group names
 * to ids: a group is matched by name, never created, so a typo cannot spawn a new group.
 */
export function parseRow(values: TRowValues, groups: ReadonlyMap<string, string>): TParsedRow {
  const messages: TRowMessage[] = [];
  const say = (field: TImportField, message: string) => messages.push({ field, message });

  let type: TClientType | undefined;
  if (values.type) {
    type = TYPE_WORDS[normaliseHeader(values.type)];
    if (!type)
      say(
        'type',
        `Unknown type “${values.type}”: use one of ${Object.values(CLIENT_TYPE_LABELS).join(', ')}`,
      );
  }
  let status: TClientStatus | undefined;
  if (values.status) {
    status = STATUS_WORDS[normaliseHeader(values.status)];
    if (!status) say('status', `Unknown status “${values.status}”: use Active or Inactive`);
  }
  let country: string | null = null;
  if (values.country) {
    country = countryCode(values.country);
    if (!country) say('country', `Unknown country “${values.country}”: use a two-letter code such as IN`);
  }
  let groupId: string | null = null;
  const groupName = values.group ?? null;
  if (groupName) {
    groupId = groups.get(groupName.toLowerCase()) ?? null;
    if (!groupId) say('group', `No group named “${groupName}”: create it under Client groups first`);
  }
  const taxIds: { kind: string; value: string }[] = [];
  for (const item of splitList(values.taxIds)) {
    const match = /^([A-Za-z][A-Za-z0-9 ]{0,39}?)\s*[:=]\s*(.+)$/.exec(item);
    if (!match?.[1] || !match[2]) {
      say('taxIds', `Write tax identifiers as KIND:VALUE, e.g. PAN:ABCDE1234F (not “${item}”)`);
      continue;
    }
    taxIds.push({ kind: match[1].trim().toUpperCase(), value: match[2].trim() });
  }
  const tags = splitList(values.tags);
  const generateCode = !values.code;

  const parsed = ZClientInput.safeParse({
    code: values.code ?? CODE_PLACEHOLDER,
    name: values.name ?? '',
    type,
    groupId,
    email: values.email,
    phone: values.phone,
    addressLine1: values.addressLine1,
    addressLine2: values.addressLine2,
    city: values.city,
    region: values.region,
    postalCode: values.postalCode,
    country,
    taxIds,
    tags,
    status,
    notes: values.notes,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path);
      // A message about a value this function already rejected in its own words adds nothing.
      if (messages.some((m) => m.field === field)) continue;
      say(field, field === 'taxIds' ? taxIdMessage(issue.message, country) : issue.message);
    }
  }
  const registrations = parseRegistrations(values, taxIds, say);
  if (messages.length || !parsed.success) return { ok: false, messages: dedupe(messages) };
  return { ok: true, input: parsed.data, generateCode, groupName, registrations };
}

const YES = new Set(['yes', 'y', 'true', '1', 'applicable', 'x']);
const NO = new Set(['no', 'n', 'false', '0', 'notapplicable', 'na', '']);
const SCHEME_WORDS: Record<string, TGstScheme> = {
  regular: 'regular',
  monthly: 'regular',
  normal: 'regular',
  qrmp: 'qrmp',
  quarterly: 'qrmp',
  composition: 'composition',
  cmp: 'composition',
  composite: 'composition',
};
const BAND_WORDS: Record<string, TTurnoverBand> = {
  ...Object.fromEntries(TURNOVER_BANDS.map((b) => [normaliseHeader(b), b])),
  ...Object.fromEntries(TURNOVER_BANDS.map((b) => [normaliseHeader(TURNOVER_BAND_LABELS[b]), b])),
};
const IDENTIFIER_CHECKS = { PAN: panProblem, TAN: tanProblem, GSTIN: gstinProblem };
const REGISTRATION_FIELD: Record<string, TImportField> = {
  gstin: 'taxIds',
  pan: 'taxIds',
  tan: 'taxIds',
  gstScheme: 'gstScheme',
  turnoverBand: 'turnoverBand',
  cin: 'cin',
  llpin: 'llpin',
};

/**
 * The row's statutory registrations: PAN, TAN and GSTIN from its tax identifiers, the rest from their
 * own columns, checked as the profile's form checks them (a GSTIN without a scheme is regular).
 */
function parseRegistrations(
  values: TRowValues,
  taxIds: readonly { kind: string; value: string }[],
  say: (field: TImportField, message: string) => void,
): TRegistrations | null {
  // A tax identifier becomes a registration when it passes its check; one that does not stays a
  // plain tax identifier, as before registrations existed (an explicit GST scheme still needs a GSTIN).
  const kind = (k: 'PAN' | 'TAN' | 'GSTIN') => {
    const value = taxIds
      .find((t) => t.kind === k)
      ?.value?.replace(/\s+/g, '')
      .toUpperCase();
    return value && !IDENTIFIER_CHECKS[k](value) ? value : null;
  };
  const flag = (field: 'taxAudit' | 'transferPricing' | 'collectsTcs') => {
    const word = normaliseHeader(values[field] ?? '');
    if (YES.has(word)) return true;
    if (!NO.has(word)) say(field, `Write Yes or No (not “${values[field]}”)`);
    return false;
  };
  let gstScheme: TGstScheme | null = null;
  if (values.gstScheme) {
    gstScheme = SCHEME_WORDS[normaliseHeader(values.gstScheme)] ?? null;
    if (!gstScheme)
      say('gstScheme', `Unknown GST scheme “${values.gstScheme}”: use Regular, QRMP or Composition`);
  }
  let turnoverBand: TTurnoverBand | null = null;
  if (values.turnoverBand) {
    turnoverBand = BAND_WORDS[normaliseHeader(values.turnoverBand)] ?? null;
    if (!turnoverBand)
      say(
        'turnoverBand',
        `Unknown turnover band “${values.turnoverBand}”: use ${Object.values(TURNOVER_BAND_LABELS).join(', ')}`,
      );
  }
  const input = {
    gstin: kind('GSTIN'),
    pan: kind('PAN'),
    tan: kind('TAN'),
    cin: values.cin ?? null,
    llpin: values.llpin ?? null,
    gstScheme: gstScheme ?? (kind('GSTIN') ? 'regular' : null),
    turnoverBand,
    taxAudit: flag('taxAudit'),
    transferPricing: flag('transferPricing'),
    collectsTcs: flag('collectsTcs'),
  };
  const any = Object.values(input).some((v) => v !== null && v !== false);
  if (!any) return null;
  const parsed = ZRegistrations.safeParse(input);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    say(REGISTRATION_FIELD[key] ?? 'taxIds', issue.message);
  }
  return null;
}

function fieldOfPath(path: readonly PropertyKey[]): TImportField {
  const head = String(path[0] ?? 'name');
  if (head === 'groupId') return 'group';
  return (IMPORT_FIELDS as readonly string[]).includes(head) ? (head as TImportField) : 'name';
}

function taxIdMessage(message: string, country: string | null) {
  const kinds = taxIdKinds(country);
  return message.startsWith('Choose one of') && kinds
    ? `Tax identifier kinds for ${country} are ${kinds.join(', ')}`
    : message;
}

function dedupe(messages: TRowMessage[]) {
  const seen = new Set<string>();
  return messages.filter((m) => {
    const key = `${m.field}|${m.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What makes two clients the same person or business: their email and each tax identifier. */
export function duplicateKeys(input: Pick<TClientInput, 'email' | 'taxIds'>) {
  const keys: { key: string; label: string }[] = [];
  if (input.email) keys.push({ key: `email:${input.email.toLowerCase()}`, label: 'email' });
  for (const t of input.taxIds) keys.push({ key: `tax:${taxKey(t.kind, t.value)}`, label: t.kind });
  return keys;
}

// ---- export ----

/** "PAN:ABCDE1234F; GSTIN:27ABCDE1234F1Z5": what the Tax IDs column holds, both ways. */
export const formatTaxIds = (taxIds: readonly { kind: string; value: string }[]) =>
  taxIds.map((t) => `${t.kind}:${t.value}`).join('; ');

export const formatStatus = (status: TClientStatus) => (status === 'active' ? 'Active' : 'Inactive');

/** The Tax IDs cell with the registrations' PAN, TAN and GSTIN added when the list lacks them. */
export function taxIdsWithRegistrations(
  taxIds: readonly { kind: string; value: string }[],
  r: Pick<TRegistrations, 'pan' | 'tan' | 'gstin'> | null,
) {
  const out = [...taxIds];
  for (const [kind, value] of [
    ['PAN', r?.pan],
    ['TAN', r?.tan],
    ['GSTIN', r?.gstin],
  ] as const) {
    if (value && !out.some((t) => t.kind.toUpperCase() === kind)) out.push({ kind, value });
  }
  return out;
}

// ---- procedures ----

export const IMPORT_ROW_STATUSES = ['new', 'duplicate', 'error', 'imported'] as const;
export type TImportRowStatus = (typeof IMPORT_ROW_STATUSES)[number];
export const IMPORT_STATUSES = ['preview', 'importing', 'done', 'discarded'] as const;
export type TImportStatus = (typeof IMPORT_STATUSES)[number];

export const ZImportRef = z.object({ importId: z.uuid('This import was not found') });
export const ZImportRowsInput = z.object({
  importId: z.uuid('This import was not found'),
  status: z.enum(IMPORT_ROW_STATUSES).optional(),
  page: zNumber().int().min(1).default(1),
  pageSize: zNumber().int().min(1).max(200).default(50),
});
export type TImportRowsInput = z.input<typeof ZImportRowsInput>;

/** The export's filter: the list's, from the URL's query string, without the page window. */
export const ZClientExportQuery = z.object({
  search: ZClientListInput.shape.search,
  sort: z.enum(CLIENT_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  type: z.enum(CLIENT_TYPES, 'Choose a client type').optional(),
  groupId: z.uuid('Choose a group from the list').optional(),
  serviceId: z.uuid('Choose a service from the list').optional(),
  memberId: z.uuid('Choose a member from the list').optional(),
  status: z.enum(CLIENT_STATUSES, 'Choose a status').optional(),
  prospects: z.enum(['hide', 'only', 'include']).default('hide'),
  tags: z
    .union([ZTag, z.array(ZTag)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(ZTag).max(MAX_TAGS))
    .optional(),
  archived: z.enum(ARCHIVED_FILTERS).default('hide'),
});
export type TClientExportQuery = z.output<typeof ZClientExportQuery>;

export function clientExportSearch(filter: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.set(key, String(value));
  }
  return params.toString();
}
