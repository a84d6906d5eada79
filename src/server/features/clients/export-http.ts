import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, count, desc, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  CLIENT_EXPORT_PATH,
  CLIENT_EXPORT_XLSX_PATH,
  FIELD_HEADERS,
  formatStatus,
  formatTaxIds,
  IMPORT_FIELDS,
  type TClientExportQuery,
  taxIdsWithRegistrations,
  ZClientExportQuery,
} from '../../../domain/client-import';
import { CLIENT_TYPE_LABELS } from '../../../domain/clients';
import { todayIn } from '../../../domain/days';
import { TURNOVER_BAND_LABELS } from '../../../domain/statutory/catalogue';

/** The GST scheme as the import reads it back. */
const GST_SCHEME_WORDS = { regular: 'Regular', qrmp: 'QRMP', composition: 'Composition' } as const;

import { actorOf, requestMeta, routeStaffScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientGroups, clientRegistrations, clients, orgs } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { audit } from '../system-log';
import { csvWriter } from './csv';
import { clientListWhere } from './list';
import { xlsxWriter } from './xlsx';

const EXPORT_BATCH = 1000;

const fuzzy = (term: string) => term.length >= 3 && !/[0-9]/.test(term);

/**
 * The list's search, as /clients answers it: clients whose name, code, email, phone or tax id holds
 * the term; when none does, names within typo distance of it (a word term only).
 */
async function searchWhere(db: TExecutor, base: SQL | undefined, search: string | undefined) {
  const term = search?.toLowerCase();
  if (!term) return base;
  const substring = and(base, sql`${clients.searchText} ilike ${escapeLike(term)}`);
  if (!fuzzy(term)) return substring;
  const [any] = await db.select({ one: sql`1` }).from(clients).where(substring).limit(1);
  return any ? substring : and(base, sql`${term} <% ${clients.searchText}`);
}

type TExportRow = Awaited<ReturnType<typeof exportPage>>[number];

/** One page of the export in the list's sort, after a keyset cursor so deep pages cost the same. */
function exportPage(
  db: TExecutor,
  where: SQL | undefined,
  filter: TClientExportQuery,
  until: Date,
  after: { v: string; id: string } | null,
) {
  const sortColumn = { name: clients.name, code: clients.code, createdAt: clients.createdAt }[filter.sort];
  const cursorValue =
    filter.sort === 'createdAt'
      ? sql<string>`to_char(${clients.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
      : sql<string>`${sortColumn}`;
  const op = sql.raw(filter.direction === 'asc' ? '>' : '<');
  const dir = filter.direction === 'asc' ? asc : desc;
  return db
    .select({
      id: clients.id,
      code: clients.code,
      name: clients.name,
      type: clients.type,
      email: clients.email,
      phone: clients.phone,
      addressLine1: clients.addressLine1,
      addressLine2: clients.addressLine2,
      city: clients.city,
      region: clients.region,
      postalCode: clients.postalCode,
      country: clients.country,
      taxIds: clients.taxIds,
      group: clientGroups.name,
      tags: clients.tags,
      status: clients.status,
      notes: clients.notes,
      // Drizzle reads a left-joined object as absent when its first column is null: led by a column
      // the row always has, a registration with a PAN and no GSTIN is not dropped from the file.
      reg: {
        clientId: clientRegistrations.clientId,
        gstin: clientRegistrations.gstin,
        gstScheme: clientRegistrations.gstScheme,
        turnoverBand: clientRegistrations.turnoverBand,
        pan: clientRegistrations.pan,
        tan: clientRegistrations.tan,
        cin: clientRegistrations.cin,
        llpin: clientRegistrations.llpin,
        taxAudit: clientRegistrations.taxAudit,
        transferPricing: clientRegistrations.transferPricing,
        collectsTcs: clientRegistrations.collectsTcs,
      },
      cursorValue,
    })
    .from(clients)
    .leftJoin(clientGroups, and(eq(clientGroups.orgId, clients.orgId), eq(clientGroups.id, clients.groupId)))
    .leftJoin(
      clientRegistrations,
      and(eq(clientRegistrations.orgId, clients.orgId), eq(clientRegistrations.clientId, clients.id)),
    )
    .where(
      and(
        where,
        // Clients added while the file streams are left out, so a page boundary never moves.
        lte(clients.createdAt, until),
        after
          ? filter.sort === 'createdAt'
            ? sql`(${clients.createdAt}, ${clients.id}) ${op} (${after.v}::timestamptz, ${after.id}::uuid)`
            : sql`(${sortColumn}, ${clients.id}) ${op} (${after.v}, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(dir(sortColumn), dir(clients.id))
    .limit(EXPORT_BATCH);
}

async function* exportRows(db: TExecutor, where: SQL | undefined, filter: TClientExportQuery, until: Date) {
  let after: { v: string; id: string } | null = null;
  for (;;) {
    const rows = await exportPage(db, where, filter, until, after);
    if (rows.length) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return;
    after = { v: String(last.cursorValue), id: last.id };
  }
}

/** A client as the export's columns (the import's headers) hold it. */
function record(row: TExportRow): string[] {
  const cell: Record<(typeof IMPORT_FIELDS)[number], string> = {
    code: row.code,
    name: row.name,
    type: CLIENT_TYPE_LABELS[row.type],
    email: row.email ?? '',
    phone: row.phone ?? '',
    addressLine1: row.addressLine1 ?? '',
    addressLine2: row.addressLine2 ?? '',
    city: row.city ?? '',
    region: row.region ?? '',
    postalCode: row.postalCode ?? '',
    country: row.country ?? '',
    taxIds: formatTaxIds(taxIdsWithRegistrations(row.taxIds, row.reg)),
    group: row.group ?? '',
    tags: row.tags.join('; '),
    status: formatStatus(row.status),
    notes: row.notes ?? '',
    gstScheme: row.reg?.gstScheme ? GST_SCHEME_WORDS[row.reg.gstScheme] : '',
    turnoverBand: row.reg?.turnoverBand ? TURNOVER_BAND_LABELS[row.reg.turnoverBand] : '',
    cin: row.reg?.cin ?? '',
    llpin: row.reg?.llpin ?? '',
    taxAudit: row.reg?.taxAudit ? 'Yes' : '',
    transferPricing: row.reg?.transferPricing ? 'Yes' : '',
    collectsTcs: row.reg?.collectsTcs ? 'Yes' : '',
  };
  return IMPORT_FIELDS.map((f) => cell[f]);
}

function describeFilter(filter: TClientExportQuery): string {
  const parts: string[] = [];
  if (filter.search) parts.push(`search "${filter.search}"`);
  if (filter.type) parts.push(`type ${filter.type}`);
  if (filter.status) parts.push(`status ${filter.status}`);
  if (filter.groupId) parts.push(`group ${filter.groupId}`);
  if (filter.serviceId) parts.push(`service ${filter.serviceId}`);
  if (filter.memberId) parts.push(`member ${filter.memberId}`);
  if (filter.tags?.length) parts.push(`tags ${filter.tags.join(', ')}`);
  if (filter.archived !== 'hide') parts.push(`archived: ${filter.archived}`);
  return parts.length ? parts.join(', ') : 'no filter';
}

const FORMATS = {
  csv: { path: CLIENT_EXPORT_PATH, label: 'CSV', type: 'text/csv; charset=utf-8' },
  xlsx: {
    path: CLIENT_EXPORT_XLSX_PATH,
    label: 'Excel',
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
} as const;

/**
 * GET /api/clients/export.csv and /api/clients/export.xlsx?{the list's filter}: the clients the
 * member sees on /clients with that search and those filters (assigned-only roles get theirs only),
 * streamed a batch at a time, in the columns the import reads back. Each export is logged with its
 * count and filter.
 */
export function registerClientExport(app: FastifyInstance, deps: { db: TDb }) {
  for (const [ext, format] of Object.entries(FORMATS)) {
    app.get(
      format.path,
      { config: { auth: { staff: 'clients.view' }, link: 'clients.export' } },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const parsed = ZClientExportQuery.safeParse(req.query ?? {});
        if (!parsed.success) {
          return reply.code(400).send({
            error: 'BAD_REQUEST',
            message: parsed.error.issues[0]?.message ?? 'The filter is not valid',
          });
        }
        const filter = parsed.data;
        const until = new Date();
        const where = await searchWhere(deps.db, clientListWhere(deps.db, scope, filter), filter.search);
        const [totals] = await deps.db
          .select({ total: count() })
          .from(clients)
          .where(and(where, lte(clients.createdAt, until)));
        const total = totals?.total ?? 0;
        const [org] = await deps.db
          .select({ timeZone: orgs.timeZone })
          .from(orgs)
          .where(eq(orgs.id, scope.orgId));
        await deps.db.transaction((tx) =>
          audit(tx, actorOf(scope, requestMeta(req)), {
            action: 'client.export',
            recordType: 'client',
            summary: `Exported ${total} client${total === 1 ? '' : 's'} to ${format.label} (${describeFilter(filter)})`,
          }),
        );
        const headers = IMPORT_FIELDS.map((f) => FIELD_HEADERS[f]);
        const records = async function* () {
          for await (const batch of exportRows(deps.db, where, filter, until)) {
            for (const row of batch) yield record(row);
          }
        };
        reply
          .type(format.type)
          .header(
            'content-disposition',
            // Named for the firm's day, as every date the firm reads.
            `attachment; filename="clients-${todayIn(org?.timeZone ?? 'UTC', until)}.${ext}"`,
          )
          .header('cache-control', 'no-store')
          .header('x-total-count', String(total));
        if (ext === 'xlsx') {
          const xlsx = await xlsxWriter('Clients', headers);
          (async () => {
            for await (const cells of records()) xlsx.add(cells);
            await xlsx.end();
          })().catch((err) => {
            // Cut the download rather than end it as a valid but short workbook.
            req.log.error({ err }, 'client export failed');
            xlsx.stream.destroy(err);
          });
          return reply.send(xlsx.stream);
        }
        const csv = csvWriter(headers);
        // pipeline() destroys both streams if the database fails half-way, so the download is cut
        // rather than silently short.
        pipeline(Readable.from(records()), csv).catch((err) =>
          req.log.error({ err }, 'client export failed'),
        );
        return reply.send(csv);
      },
    );
  }
}
