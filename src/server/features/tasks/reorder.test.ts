import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, roles, systemLog, tasks } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: { data?: { code?: string } }) => e.data?.code ?? String(e),
  );

async function column(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  const made: { id: string; title: string }[] = [];
  for (const title of ['One', 'Two', 'Three', 'Four']) {
    made.push({ id: (await api.tasks.create.mutate({ title })).id, title });
  }
  const board = async () =>
    (await api.tasks.list.query({ status: ['SCHEDULED'], sort: { field: 'position', dir: 'asc' } })).rows.map(
      (r) => r.title,
    );
  const ids = async () =>
    (await api.tasks.list.query({ status: ['SCHEDULED'], sort: { field: 'position', dir: 'asc' } })).rows.map(
      (r) => r.id,
    );
  const idOf = (title: string) => made.find((m) => m.title === title)?.id ?? '';
  return { f, api, board, ids, idOf };
}

describe('tasks.reorder', () => {
  it('renumbers a never-ordered column once, then moves one row per change, audited', async () => {
    const { f, api, board, ids, idOf } = await column('Reorder');
    const start = await board();
    expect(start).toHaveLength(4);
    // Every card at position 0: a move between two of them renumbers the column.
    const first = await ids();
    const moved = [first[0], first[3], first[1], first[2]] as string[];
    await api.tasks.reorder.mutate({ taskId: first[3] as string, order: moved });
    expect(await ids()).toEqual(moved);

    // From now on a move changes only the moved row.
    const before = await t.db
      .select({ id: tasks.id, position: tasks.position })
      .from(tasks)
      .where(eq(tasks.orgId, f.org.id))
      .orderBy(asc(tasks.id));
    const last = moved[3] as string;
    const next = [moved[0], last, moved[1], moved[2]] as string[];
    const result = await api.tasks.reorder.mutate({ taskId: last, order: next });
    expect(await ids()).toEqual(next);
    const after = await t.db
      .select({ id: tasks.id, position: tasks.position })
      .from(tasks)
      .where(eq(tasks.orgId, f.org.id))
      .orderBy(asc(tasks.id));
    const changedRows = after.filter((row, i) => row.position !== before[i]?.position);
    expect(changedRows).toEqual([{ id: last, position: result.position }]);

    // Top and bottom.
    const top = [idOf('Three'), ...next.filter((id) => id !== idOf('Three'))];
    await api.tasks.reorder.mutate({ taskId: idOf('Three'), order: top });
    expect(await ids()).toEqual(top);
    const bottom = [...top.filter((id) => id !== top[0]), top[0] as string];
    await api.tasks.reorder.mutate({ taskId: top[0] as string, order: bottom });
    expect(await ids()).toEqual(bottom);

    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'task.reorder')))
      .orderBy(asc(systemLog.at), asc(systemLog.id));
    expect(log).toHaveLength(4);
    expect(log.map((l) => l.summary.includes('renumbered'))).toEqual([true, false, false, false]);
  });

  it('answers NOT_FOUND for another firm’s task, CONFLICT for a stale column, FORBIDDEN without tasks.edit', async () => {
    const a = await column('Reorder A');
    const b = await column('Reorder B');
    const aIds = await a.ids();
    const bIds = await b.ids();
    expect(
      await code(
        b.api.tasks.reorder.mutate({ taskId: aIds[0] as string, order: [aIds[0], bIds[0]] as string[] }),
      ),
    ).toBe('NOT_FOUND');
    // A neighbour from another firm is not a neighbour.
    expect(
      await code(
        a.api.tasks.reorder.mutate({ taskId: aIds[0] as string, order: [bIds[0], aIds[0]] as string[] }),
      ),
    ).toBe('CONFLICT');
    expect(
      await code(a.api.tasks.reorder.mutate({ taskId: aIds[0] as string, order: [aIds[0]] as string[] })),
    ).toBe('BAD_REQUEST');

    const [role] = await t.db
      .insert(roles)
      .values({ orgId: a.f.org.id, name: 'Viewer', permissions: ['tasks.view'] })
      .returning();
    const sub = randomUUID();
    await t.db.insert(members).values({
      orgId: a.f.org.id,
      sub,
      email: `${sub}@example.test`,
      firstName: 'View',
      roleId: role?.id ?? '',
      isVerified: true,
    });
    const viewer = t.client(await t.tokenFor(sub));
    expect(
      await code(
        viewer.tasks.reorder.mutate({ taskId: aIds[0] as string, order: [aIds[1], aIds[0]] as string[] }),
      ),
    ).toBe('FORBIDDEN');
    expect(await a.ids()).toEqual(aIds);
  });
});
