import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { todayIn } from '../../../domain/days';
import { isoDateTimeIn } from '../../../domain/format';
import {
  SYSTEM_LOG_EXPORT_PATH,
  type TSystemLogFilter,
  ZSystemLogExportQuery,
} from '../../../domain/system-log';
import { actorOf, requestMeta, routeStaffScope } from '../../auth';
import type { TDb } from '../../db/client';
import { orgs } from '../../db/schema';
import {
  actorDisplayName,
  audit,
  countSystemLog,
  systemLogRowsForExport,
  type TSystemLogRow,
} from './service';

/** The columns; times are ISO 8601 on the firm's clock, with its offset (see domain/format.ts). */
const csvColumns = (timeZone: string) => [
  { key: 'at', header: `When (${timeZone})` },
  { key: 'member', header: 'Member' },
  { key: 'actorKind', header: 'Actor kind' },
  { key: 'action', header: 'Action' },
  { key: 'recordType', header: 'Record type' },
  { key: 'recordId', header: 'Record id' },
  { key: 'summary', header: 'Summary' },
  { key: 'changes', header: 'Changes' },
  { key: 'ip', header: 'IP' },
  { key: 'userAgent', header: 'User agent' },
];

function csvRecord(row: TSystemLogRow, timeZone: string): Record<string, string> {
  return {
    at: isoDateTimeIn(row.at, timeZone),
    member: actorDisplayName(row) ?? '',
    actorKind: row.actorKind,
    action: row.action,
    recordType: row.recordType,
    recordId: row.recordId ?? '',
    summary: row.summary,
    changes: row.changes ? JSON.stringify(row.changes) : '',
    ip: row.ip ?? '',
    userAgent: row.userAgent ?? '',
  };
}

/** The filter in words, for the export's own log entry. */
function describeFilter(filter: TSystemLogFilter): string {
  const parts: string[] = [];
  if (filter.actorId) parts.push(`member ${filter.actorId}`);
  if (filter.recordType) parts.push(`record type ${filter.recordType}`);
  if (filter.action) parts.push(`action ${filter.action}`);
  if (filter.from) parts.push(`from ${filter.from.toISOString()}`);
  if (filter.to) parts.push(`to ${filter.to.toISOString()}`);
  if (filter.search) parts.push(`search "${filter.search}"`);
  return parts.length ? parts.join(', ') : 'no filter';
}

/**
 * GET /api/systemlog/export.csv?{filter}: the system log of the caller's firm as CSV (RFC 4180: CRLF,
 * quoted fields, a BOM so spreadsheets read UTF-8, formulas neutralised), streamed a batch at a
 * time. A plain route rather than a procedure so the answer can stream; it authenticates exactly as
 * a staff procedure does (Bearer token, active member, `systemLog.view`), and every export is logged.
 */
export function registerSystemLogExport(app: FastifyInstance, deps: { db: TDb }) {
  app.get(
    SYSTEM_LOG_EXPORT_PATH,
    { config: { auth: { staff: 'systemLog.view' }, link: 'systemLog.export' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const parsed = ZSystemLogExportQuery.safeParse(req.query ?? {});
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'The filter is not valid';
        return reply.code(400).send({ error: 'BAD_REQUEST', message });
      }
      const filter = parsed.data;
      const until = new Date();
      const [org] = await deps.db
        .select({ timeZone: orgs.timeZone })
        .from(orgs)
        .where(eq(orgs.id, scope.orgId));
      const timeZone = org?.timeZone ?? 'UTC';
      const total = await countSystemLog(deps.db, scope, filter, until);
      await deps.db.transaction((tx) =>
        audit(tx, actorOf(scope, requestMeta(req)), {
          action: 'systemLog.export',
          recordType: 'systemLog',
          summary: `Exported ${total} system log ${total === 1 ? 'entry' : 'entries'} to CSV (${describeFilter(filter)})`,
        }),
      );

      const csv = stringify({
        header: true,
        columns: csvColumns(timeZone),
        bom: true,
        record_delimiter: 'windows',
        // RFC 4180 quotes a field holding a CR or LF; the library only quotes the whole CRLF by itself.
        quoted_match: /[\r\n]/,
        escape_formulas: true,
      });
      const source = Readable.from(
        (async function* () {
          for await (const batch of systemLogRowsForExport(deps.db, scope, filter, until)) {
            for (const row of batch) yield csvRecord(row, timeZone);
          }
        })(),
      );
      const stamp = todayIn(timeZone, until);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="system-log-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .header('x-total-count', String(total));
      // pipeline() destroys both streams if the database fails half-way, so the client sees a cut
      // response rather than a silently short file.
      pipeline(source, csv).catch((err) => req.log.error({ err }, 'system log export failed'));
      return reply.send(csv);
    },
  );
}
