import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZBroadcastTemplateInput, ZBroadcastTemplateList } from '../../../domain/broadcasts';
import type { TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { broadcastTemplates } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { audit, diff } from '../system-log';
import { sanitizeBody } from './render';

type TInput = z.output<typeof ZBroadcastTemplateInput>;
type TScopeIds = Pick<TScope, 'orgId' | 'memberId'>;

export type TTemplateRow = { id: string; name: string; subject: string; bodyHtml: string; updatedAt: Date };

const columns = {
  id: broadcastTemplates.id,
  name: broadcastTemplates.name,
  subject: broadcastTemplates.subject,
  bodyHtml: broadcastTemplates.bodyHtml,
  updatedAt: broadcastTemplates.updatedAt,
};

export async function listTemplates(
  db: TExecutor,
  scope: TScopeIds,
  input: z.output<typeof ZBroadcastTemplateList>,
): Promise<TPage<TTemplateRow>> {
  const where = and(
    eq(broadcastTemplates.orgId, scope.orgId),
    input.search ? ilike(broadcastTemplates.name, escapeLike(input.search)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(broadcastTemplates)
      .where(where)
      .orderBy(asc(broadcastTemplates.name), asc(broadcastTemplates.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(broadcastTemplates).where(where),
  ]);
  return { rows, total: total?.n ?? 0, page: input.page, pageSize: input.pageSize };
}

export async function getTemplate(db: TExecutor, scope: TScopeIds, id: string, lock = false) {
  const q = db
    .select(columns)
    .from(broadcastTemplates)
    .where(and(eq(broadcastTemplates.orgId, scope.orgId), eq(broadcastTemplates.id, id)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
  return row;
}

const clean = (input: TInput) => ({
  name: input.name,
  subject: input.subject,
  bodyHtml: sanitizeBody(input.bodyHtml),
});

function nonEmpty(values: ReturnType<typeof clean>) {
  if (!values.bodyHtml.trim()) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Write the message: nothing was left after cleaning it',
    });
  }
  return values;
}

export async function createTemplate(db: TDb, scope: TScopeIds, input: TInput, meta?: TRequestMeta) {
  const values = nonEmpty(clean(input));
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(broadcastTemplates)
      .values({ orgId: scope.orgId, createdBy: scope.memberId, ...values })
      .returning(columns);
    if (!row) throw new Error('template not created');
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcastTemplate.created',
      recordType: 'broadcastTemplate',
      recordId: row.id,
      summary: `Created the broadcast template “${row.name}”`,
    });
    return row;
  });
}

export async function updateTemplate(
  db: TDb,
  scope: TScopeIds,
  id: string,
  input: TInput,
  meta?: TRequestMeta,
) {
  const values = nonEmpty(clean(input));
  return db.transaction(async (tx) => {
    const before = await getTemplate(tx, scope, id, true);
    const [row] = await tx
      .update(broadcastTemplates)
      .set(values)
      .where(and(eq(broadcastTemplates.orgId, scope.orgId), eq(broadcastTemplates.id, id)))
      .returning(columns);
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcastTemplate.updated',
      recordType: 'broadcastTemplate',
      recordId: id,
      summary: `Edited the broadcast template “${row.name}”`,
      changes: diff(
        { name: before.name, subject: before.subject, bodyHtml: before.bodyHtml },
        values as Record<string, unknown>,
      ),
    });
    return row;
  });
}

export async function deleteTemplate(db: TDb, scope: TScopeIds, id: string, meta?: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await getTemplate(tx, scope, id, true);
    await tx
      .delete(broadcastTemplates)
      .where(and(eq(broadcastTemplates.orgId, scope.orgId), eq(broadcastTemplates.id, id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcastTemplate.deleted',
      recordType: 'broadcastTemplate',
      recordId: id,
      summary: `Deleted the broadcast template “${before.name}”`,
    });
    return { id };
  });
}
