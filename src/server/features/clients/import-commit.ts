import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CLIENT_IMPORT_BATCH,
  duplicateKeys,
  type TImportRowStatus,
  type TRowMessage,
} from '../../../domain/client-import';
import type { TRegistrations } from '../../../domain/statutory/registrations';
import { actorOf, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientGroups, clientImportRows, clientImports, clients, clientTeam } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { audit } from '../system-log';
import { countStatuses, ownImport, plural, seesAll, type TImportScope } from './import-access';
import { duplicateMessage, existingByKeys, pgArray, type TStagedClient, takenCodes } from './import-check';
import { importSummary } from './import-rows';

type TOutcome = { rowNo: number; status: TImportRowStatus; clientId: string | null; messages: TRowMessage[] };

/**
 * One step of an import: the next batch of rows, in one transaction with one multi-row insert and
 * one log entry. The web calls it until the import is done; the cursor lives in the import's row,
 * locked for the step, so two tabs or two server instances never take the same batch, and a step
 * that fails leaves the earlier batches in and this one untouched for a retry.
 */
export async function runImportStep(db: TDb, scope: TImportScope, importId: string, meta: TRequestMeta) {
  await db.transaction(async (tx) => {
    const job = await ownImport(tx, scope, importId, true);
    if (job.status === 'done') return;
    // Imports into the same firm take turns, so two files cannot both add the same email.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`client-import:${scope.orgId}`}))`);
    const next = await tx
      .select({ rowNo: clientImportRows.rowNo, status: clientImportRows.status, data: clientImportRows.data })
      .from(clientImportRows)
      .where(
        and(
          eq(clientImportRows.orgId, scope.orgId),
          eq(clientImportRows.importId, importId),
          gt(clientImportRows.rowNo, job.cursorRow),
        ),
      )
      .orderBy(asc(clientImportRows.rowNo))
      .limit(CLIENT_IMPORT_BATCH + 1);
    const batch = next.slice(0, CLIENT_IMPORT_BATCH);
    // Another instance's clock may be a little behind this one's: look back a minute more.
    const since = new Date(job.createdAt.getTime() - 60_000);
    const outcomes = await importBatch(tx, scope, batch, since);
    const last = batch.at(-1)?.rowNo ?? job.cursorRow;
    const finished = next.length <= CLIENT_IMPORT_BATCH;
    const now = new Date();
    await tx
      .update(clientImports)
      .set({
        status: finished ? 'done' : 'importing',
        // The cursor and the count move together, under the row lock: each row counts once
        // whatever the steps, retries, tabs, instances or crashes.
        cursorRow: last,
        processedRows: job.processedRows + batch.length,
        startedAt: job.startedAt ?? now,
        finishedAt: finished ? now : null,
        updatedAt: now,
      })
      .where(and(eq(clientImports.orgId, scope.orgId), eq(clientImports.id, importId)));
    if (outcomes.length) {
      // Addressed by primary key (row_no = any): a join against the JSON would leave the plan to
      // statistics that a fresh import does not have yet.
      const at = sql`array_position(${pgArray(outcomes.map((o) => String(o.rowNo)))}::int[], r.row_no)`;
      await tx.execute(sql`
        update ${clientImportRows} r
        set status = (${pgArray(outcomes.map((o) => o.status))}::text[])[${at}],
          client_id = (${`{${outcomes.map((o) => o.clientId ?? 'NULL').join(',')}}`}::uuid[])[${at}],
          messages = (${JSON.stringify(outcomes.map((o) => o.messages))}::jsonb)->(${at} - 1)
        where r.import_id = ${importId} and r.org_id = ${scope.orgId}
          and r.row_no = any(${pgArray(outcomes.map((o) => String(o.rowNo)))}::int[])`);
    }
    const imported = outcomes.filter((o) => o.status === 'imported').length;
    if (imported || finished) {
      const first = batch[0]?.rowNo;
      const totals = finished ? await finalCounts(tx, scope.orgId, importId, outcomes) : null;
      await audit(tx, actorOf(scope, meta), {
        action: 'client.import',
        recordType: 'clientImport',
        recordId: importId,
        summary:
          `Imported ${plural(imported, 'client')} from ${job.fileName}` +
          (first ? ` (rows ${first}–${last})` : '') +
          (totals
            ? `; import finished: ${plural(totals.imported, 'client')} imported, ${plural(totals.duplicate, 'duplicate')} skipped, ${plural(totals.error, 'row')} with errors`
            : ''),
        changes: { imported: { from: null, to: imported } },
      });
    }
  });
  return importSummary(db, scope, importId);
}

/** The import's totals as they will stand once this step's outcomes are written. */
async function finalCounts(tx: TExecutor, orgId: string, importId: string, pending: TOutcome[]) {
  const pendingRows = new Set(pending.map((o) => o.rowNo));
  const rows = await tx
    .select({ rowNo: clientImportRows.rowNo, status: clientImportRows.status })
    .from(clientImportRows)
    .where(and(eq(clientImportRows.orgId, orgId), eq(clientImportRows.importId, importId)));
  return countStatuses([
    ...rows.filter((r) => !pendingRows.has(r.rowNo)).map((r) => r.status),
    ...pending.map((o) => o.status),
  ]);
}

/**
 * The new rows of a batch, checked again against the firm as it is now (someone may have added a
 * client or removed a group since the preview), then inserted in one statement.
 */
async function importBatch(
  tx: TExecutor,
  scope: TImportScope,
  batch: { rowNo: number; status: TImportRowStatus; data: Record<string, unknown> | null }[],
  since: Date,
): Promise<TOutcome[]> {
  const candidates = batch
    .filter((r) => r.status === 'new' && r.data)
    .map((r) => ({ rowNo: r.rowNo, input: r.data as unknown as TStagedClient }));
  if (!candidates.length) return [];
  const named = seesAll(scope);
  const groupIds = [...new Set(candidates.flatMap((c) => (c.input.groupId ? [c.input.groupId] : [])))];
  // One after another: a transaction is one connection, which runs one query at a time.
  const existing = await existingByKeys(
    tx,
    scope.orgId,
    candidates.flatMap((c) => duplicateKeys(c.input).map((k) => k.key)),
    since,
  );
  const taken = await takenCodes(
    tx,
    scope.orgId,
    candidates.map((c) => c.input.code.toLowerCase()),
    since,
  );
  const liveGroups = await (groupIds.length
    ? tx
        .select({ id: clientGroups.id })
        .from(clientGroups)
        .where(
          and(
            eq(clientGroups.orgId, scope.orgId),
            sql`${clientGroups.id} = any(${pgArray(groupIds)}::uuid[])`,
          ),
        )
    : Promise.resolve([]));
  const groupsLeft = new Set(liveGroups.map((g) => g.id));
  const outcomes: TOutcome[] = [];
  const toInsert: typeof candidates = [];
  for (const c of candidates) {
    const owner = taken.get(c.input.code.toLowerCase());
    if (owner) {
      outcomes.push({
        rowNo: c.rowNo,
        status: 'error',
        clientId: null,
        messages: [
          {
            field: 'code',
            message: `The code ${owner.code} was taken${named ? ` by ${owner.name}` : ''} after the preview: import this row again`,
          },
        ],
      });
      continue;
    }
    if (c.input.groupId && !groupsLeft.has(c.input.groupId)) {
      outcomes.push({
        rowNo: c.rowNo,
        status: 'error',
        clientId: null,
        messages: [{ field: 'group', message: 'The group was deleted after the preview' }],
      });
      continue;
    }
    const dup = duplicateKeys(c.input).find((k) => existing.has(k.key));
    if (dup) {
      const match = existing.get(dup.key);
      outcomes.push({
        rowNo: c.rowNo,
        status: 'duplicate',
        clientId: null,
        messages: [
          duplicateMessage(
            dup.label,
            named && match ? `the client ${match.name} (${match.code})` : 'an existing client',
          ),
        ],
      });
      continue;
    }
    toInsert.push(c);
  }
  if (toInsert.length) {
    const json = JSON.stringify(
      toInsert.map(({ input }) => ({
        id: uuidv7(),
        code: input.code,
        name: input.name,
        type: input.type,
        group_id: input.groupId,
        email: input.email,
        phone: input.phone,
        address_line1: input.addressLine1,
        address_line2: input.addressLine2,
        city: input.city,
        region: input.region,
        postal_code: input.postalCode,
        country: input.country,
        lat: input.location?.lat ?? null,
        lng: input.location?.lng ?? null,
        // What became a registration lives there only (PAN, TAN and GSTIN's one home).
        tax_ids: withoutRegistered(input.taxIds, input.registrations),
        tags: input.tags,
        status: input.status,
        notes: input.notes,
      })),
    );
    // One statement for the batch, its rows in one JSON parameter. A code taken since the check
    // above (a client added this instant) costs that row, not the batch.
    const inserted = rowsOf<{ id: string; code: string }>(
      await tx.execute(sql`
        insert into ${clients} (id, org_id, code, name, type, group_id, email, phone, address_line1,
          address_line2, city, region, postal_code, country, lat, lng, tax_ids, tags, status, notes)
        select id, ${scope.orgId}::uuid, code, name, type, group_id, email, phone, address_line1,
          address_line2, city, region, postal_code, country, lat, lng, tax_ids, tags, status, notes
        from jsonb_to_recordset(${json}::jsonb) as x(id uuid, code text, name text, type text,
          group_id uuid, email text, phone text, address_line1 text, address_line2 text, city text,
          region text, postal_code text, country text, lat double precision, lng double precision,
          tax_ids jsonb, tags text[], status text, notes text)
        on conflict do nothing
        returning id, code`),
    );
    const idByCode = new Map(inserted.map((r) => [r.code, r.id]));
    // Their statutory registrations (issue 39), in one statement for the batch.
    const registrations = toInsert.flatMap((c) => {
      const id = idByCode.get(c.input.code);
      const r = c.input.registrations;
      return id && r ? [{ client_id: id, ...registrationColumns(r) }] : [];
    });
    if (registrations.length) {
      await tx.execute(sql`
        insert into client_registrations (org_id, client_id, gstin, gst_state, gst_scheme, turnover_band, pan, tan,
          cin, llpin, tax_audit, transfer_pricing, collects_tcs)
        select ${scope.orgId}::uuid, client_id, gstin, gst_state, gst_scheme, turnover_band, pan, tan, cin, llpin,
          tax_audit, transfer_pricing, collects_tcs
        from jsonb_to_recordset(${JSON.stringify(registrations)}::jsonb) as x(client_id uuid, gstin text,
          gst_state text, gst_scheme text, turnover_band text, pan text, tan text, cin text, llpin text,
          tax_audit boolean, transfer_pricing boolean, collects_tcs boolean)
        on conflict do nothing`);
    }
    for (const c of toInsert) {
      const id = idByCode.get(c.input.code);
      outcomes.push(
        id
          ? { rowNo: c.rowNo, status: 'imported', clientId: id, messages: [] }
          : {
              rowNo: c.rowNo,
              status: 'error',
              clientId: null,
              messages: [
                {
                  field: 'code',
                  message: `The code ${c.input.code} was taken while importing: import this row again`,
                },
              ],
            },
      );
    }
    // A member limited to assigned clients keeps sight of the clients they import, as with create.
    if (!seesAll(scope) && inserted.length) {
      await tx.execute(sql`
        insert into ${clientTeam} (org_id, client_id, member_id)
        select ${scope.orgId}::uuid, id, ${scope.memberId}::uuid from unnest(${pgArray(inserted.map((r) => r.id))}::uuid[]) as t(id)
        on conflict do nothing`);
    }
  }
  return outcomes;
}

/** A registrations row's columns, as the import's statement reads them. */
function registrationColumns(r: TRegistrations) {
  return {
    gstin: r.gstin,
    gst_state: r.gstin ? r.gstin.slice(0, 2) : null,
    gst_scheme: r.gstScheme,
    turnover_band: r.turnoverBand,
    pan: r.pan,
    tan: r.tan,
    cin: r.cin,
    llpin: r.llpin,
    tax_audit: r.taxAudit,
    transfer_pricing: r.transferPricing,
    collects_tcs: r.collectsTcs,
  };
}

/** The tax identifiers left once the registrations hold their PAN, TAN and GSTIN. */
function withoutRegistered(
  taxIds: readonly { kind: string; value: string }[],
  r: Pick<TRegistrations, 'pan' | 'tan' | 'gstin'> | null | undefined,
) {
  if (!r) return taxIds;
  const held = new Map([
    ['PAN', r.pan],
    ['TAN', r.tan],
    ['GSTIN', r.gstin],
    ['GST', r.gstin],
  ]);
  return taxIds.filter((t) => {
    const value = held.get(t.kind.trim().toUpperCase());
    return !value || value !== t.value.replace(/\s+/g, '').toUpperCase();
  });
}
