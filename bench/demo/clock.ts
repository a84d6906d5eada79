import { sql } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/sql';

// The demo replays a firm's months in a few seconds. Every change goes through the product, which
// stamps it with the moment it ran (created_at, completed_date, the system log's at, a delivery's
// sent_at…); the replay then moves what one step wrote onto the days that step stands for. Only
// rows the step wrote move (one of their instants falls within the step), and in them only the
// instants from the step's start on: those within it are spread over the step's window in the order
// they happened, later ones (an invitation's expiry a week on) keep their distance after the
// window's end. A due date or a send time chosen in the past stays as chosen.

type TTable = { table: string; columns: string[] };

/** Every timestamp column of the firm's tables (those with org_id), by table. */
async function firmTimestampColumns(db: TDb): Promise<TTable[]> {
  const result = await db.execute(sql`
    select c.table_name as "table", array_agg(c.column_name::text order by c.column_name) as columns
    from information_schema.columns c
    where c.table_schema = current_schema() and c.data_type = 'timestamp with time zone'
      and exists (select 1 from information_schema.columns o where o.table_schema = c.table_schema
                  and o.table_name = c.table_name and o.column_name = 'org_id')
    group by c.table_name order by 1`);
  return rowsOf<TTable>(result);
}

export type TClock = Awaited<ReturnType<typeof replayClock>>;

/** A step of the replay and the window its changes are moved onto. */
export type TClockStep = { from: Date; to: Date; run: () => Promise<unknown> };

export async function replayClock(db: TDb) {
  const tables = await firmTimestampColumns(db);
  // The firm whose rows move: the first step may be the one that makes it.
  let orgId: string | undefined;
  const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

  /**
   * Runs `step` and moves what it wrote onto [from, to): the step's moments are spread evenly over
   * that window in the order they happened.
   */
  async function during<T>(from: Date, to: Date, step: () => Promise<T>): Promise<T> {
    let result: T | undefined;
    await inTurn([
      {
        from,
        to,
        run: async () => {
          result = await step();
        },
      },
    ]);
    return result as T;
  }

  /**
   * Runs the steps one after another, each moved onto its own window as `during` would, in one pass
   * over the tables: a week of days costs what one day does.
   */
  async function inTurn(steps: readonly TClockStep[]) {
    if (!steps.length) return;
    const marks: Array<TClockStep & { started: number; ended: number }> = [];
    let cursor = Date.now() - 1;
    for (const step of steps) {
      const started = cursor;
      await step.run();
      cursor = Math.max(Date.now() + 1, started + 1);
      marks.push({ ...step, started, ended: cursor });
    }
    if (!orgId) throw new Error('the demo firm is not made yet');
    const first = new Date((marks[0] as (typeof marks)[number]).started).toISOString();
    const lastMark = marks[marks.length - 1] as (typeof marks)[number];
    const last = new Date(lastMark.ended).toISOString();
    for (const { table, columns } of tables) {
      const within = (c: string) => sql`${ident(c)} between ${first}::timestamptz and ${last}::timestamptz`;
      const moved = columns.map((c) => {
        const cases = marks.map((m) => {
          const started = new Date(m.started).toISOString();
          const factor = (m.to.getTime() - m.from.getTime()) / (m.ended - m.started);
          return sql`when ${ident(c)} between ${started}::timestamptz and ${new Date(m.ended).toISOString()}::timestamptz
            then ${m.from.toISOString()}::timestamptz + (${ident(c)} - ${started}::timestamptz) * ${factor}::float8`;
        });
        return sql`${ident(c)} = case ${sql.join(cases, sql` `)}
          when ${ident(c)} > ${last}::timestamptz then ${ident(c)} + (${lastMark.to.toISOString()}::timestamptz - ${last}::timestamptz)
          else ${ident(c)} end`;
      });
      await db.execute(sql`
        update ${ident(table)} set ${sql.join(moved, sql`, `)}
        where org_id = ${orgId}::uuid and (${sql.join(columns.map(within), sql` or `)})`);
    }
  }
  return {
    forFirm(id: string) {
      orgId = id;
    },
    during,
    inTurn,
  };
}
