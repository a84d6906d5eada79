import { TRPCError } from '@trpc/server';
import { and, asc, eq, gte, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { parseCsv } from '../../../domain/client-import';
import type { TFormatter } from '../../../domain/format';
import { holidaysFromCsv, type THolidayPart, ZHolidayFields } from '../../../domain/leave';
import type { THolidayDay } from '../../../domain/leave-rules';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { holidays } from '../../db/schema';
import { firmFormatter } from '../settings';
import { audit, diff } from '../system-log';

type THoliday = z.output<typeof ZHolidayFields>;

const taken = (h: { date: string; office: string | null }, format: TFormatter) =>
  new TRPCError({
    code: 'CONFLICT',
    message: `There is already a holiday on ${format.date(h.date)}${h.office ? ` for ${h.office}` : ''}`,
  });

/** One office's holidays and the firm-wide ones (office null); office undefined: every holiday. */
const officeFilter = (office: string | null | undefined): SQL | undefined =>
  office === undefined
    ? undefined
    : office === null
      ? isNull(holidays.office)
      : or(isNull(holidays.office), eq(holidays.office, office));

export async function listHolidays(
  db: TExecutor,
  orgId: string,
  input: { year: number; office: string | null },
) {
  return db
    .select({
      id: holidays.id,
      date: holidays.date,
      name: holidays.name,
      office: holidays.office,
      part: holidays.part,
    })
    .from(holidays)
    .where(
      and(
        eq(holidays.orgId, orgId),
        gte(holidays.date, `${input.year}-01-01`),
        lte(holidays.date, `${input.year}-12-31`),
        input.office ? eq(holidays.office, input.office) : undefined,
      ),
    )
    .orderBy(asc(holidays.date), asc(holidays.office));
}

/** The holidays each office keeps between two days (firm-wide ones count for every office). */
export async function holidaysBetween(
  db: TExecutor,
  orgId: string,
  from: string,
  to: string,
  office?: string | null,
): Promise<(THolidayDay & { name: string; office: string | null })[]> {
  return db
    .select({ date: holidays.date, part: holidays.part, name: holidays.name, office: holidays.office })
    .from(holidays)
    .where(
      and(eq(holidays.orgId, orgId), gte(holidays.date, from), lte(holidays.date, to), officeFilter(office)),
    );
}

/** The holidays that apply to a member of `office`: a firm-wide full day beats an office's half. */
export function holidaysForOffice(
  all: readonly (THolidayDay & { office: string | null })[],
  office: string | null,
): THolidayDay[] {
  const byDate = new Map<string, THolidayPart>();
  for (const h of all) {
    if (h.office !== null && h.office !== office) continue;
    const had = byDate.get(h.date);
    byDate.set(h.date, had === 'full' || (had && had !== h.part) ? 'full' : h.part);
  }
  return [...byDate].map(([date, part]) => ({ date, part }));
}

async function holidayOf(db: TExecutor, orgId: string, holidayId: string) {
  const [row] = await db
    .select({ date: holidays.date, name: holidays.name, office: holidays.office, part: holidays.part })
    .from(holidays)
    .where(and(eq(holidays.orgId, orgId), eq(holidays.id, holidayId)))
    .for('update');
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Holiday not found' });
  return row;
}

export async function createHoliday(db: TDb, scope: TScope, input: THoliday, meta: TRequestMeta) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(holidays)
        .values({ orgId: scope.orgId, ...input })
        .returning({ id: holidays.id });
      if (!row) throw new Error('holiday not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'holiday.create',
        recordType: 'holiday',
        recordId: row.id,
        summary: `Added the holiday ${input.name} on ${(await firmFormatter(tx, scope.orgId)).date(input.date)}${input.office ? ` (${input.office})` : ''}`,
      });
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input, await firmFormatter(db, scope.orgId));
    throw error;
  }
}

export async function updateHoliday(
  db: TDb,
  scope: TScope,
  holidayId: string,
  input: THoliday,
  meta: TRequestMeta,
) {
  try {
    return await db.transaction(async (tx) => {
      const before = await holidayOf(tx, scope.orgId, holidayId);
      const changes = diff(before, input);
      if (!changes) return { id: holidayId };
      await tx
        .update(holidays)
        .set({ ...input, updatedAt: new Date() })
        .where(and(eq(holidays.orgId, scope.orgId), eq(holidays.id, holidayId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'holiday.update',
        recordType: 'holiday',
        recordId: holidayId,
        summary: `Updated the holiday ${input.name} on ${(await firmFormatter(tx, scope.orgId)).date(input.date)}`,
        changes,
      });
      return { id: holidayId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input, await firmFormatter(db, scope.orgId));
    throw error;
  }
}

export async function deleteHoliday(db: TDb, scope: TScope, holidayId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await holidayOf(tx, scope.orgId, holidayId);
    await tx.delete(holidays).where(and(eq(holidays.orgId, scope.orgId), eq(holidays.id, holidayId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'holiday.delete',
      recordType: 'holiday',
      recordId: holidayId,
      summary: `Deleted the holiday ${before.name} on ${(await firmFormatter(tx, scope.orgId)).date(before.date)}`,
    });
    return { id: holidayId };
  });
}

/** Adds holidays, skipping days the office (or the firm) already has one on; answers how many were added. */
async function addMany(tx: TExecutor, orgId: string, rows: THoliday[]) {
  if (rows.length === 0) return 0;
  const added = await tx
    .insert(holidays)
    .values(rows.map((r) => ({ orgId, ...r })))
    .onConflictDoNothing()
    .returning({ id: holidays.id });
  return added.length;
}

export async function importHolidays(
  db: TDb,
  scope: TScope,
  input: { csv: string; office: string | null },
  meta: TRequestMeta,
) {
  const { holidays: rows, errors } = holidaysFromCsv(parseCsv(input.csv));
  if (errors.length) throw new TRPCError({ code: 'BAD_REQUEST', message: errors.slice(0, 5).join('; ') });
  if (rows.length === 0) throw new TRPCError({ code: 'BAD_REQUEST', message: 'The file has no holidays' });
  return db.transaction(async (tx) => {
    const added = await addMany(
      tx,
      scope.orgId,
      rows.map((r) => ({ ...ZHolidayFields.parse(r), office: input.office })),
    );
    await audit(tx, actorOf(scope, meta), {
      action: 'holiday.import',
      recordType: 'holiday',
      summary: `Imported ${added} holiday${added === 1 ? '' : 's'}${input.office ? ` for ${input.office}` : ''} (${rows.length - added} already there)`,
    });
    return { added, skipped: rows.length - added };
  });
}

/**
 * Copies a year's holidays to the next year on the same month and day. Festivals that move (most
 * of them) still need their dates checked: the screen says so.
 */
export async function copyHolidaysToNextYear(
  db: TDb,
  scope: TScope,
  input: { fromYear: number; office: string | null },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const source = await listHolidays(tx, scope.orgId, { year: input.fromYear, office: input.office });
    const next = input.fromYear + 1;
    const rows = source
      .filter((h) => h.date.slice(5) !== '02-29')
      .map((h) => ({ date: `${next}${h.date.slice(4)}`, name: h.name, office: h.office, part: h.part }));
    const added = await addMany(tx, scope.orgId, rows);
    await audit(tx, actorOf(scope, meta), {
      action: 'holiday.copy',
      recordType: 'holiday',
      summary: `Copied ${added} holiday${added === 1 ? '' : 's'} from ${input.fromYear} to ${next}`,
    });
    return { added, year: next };
  });
}
