import { TRPCError } from '@trpc/server';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZRequestTemplateSave } from '../../../domain/requests/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { requestTemplates } from '../../db/schema';
import { audit } from '../system-log';

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });

const itemCount = (t: { sections: { items: unknown[] }[] }) =>
  t.sections.reduce((n, s) => n + s.items.length, 0);

/** The firm's request templates by name, each with its size (the editor opens one whole). */
export async function listTemplates(db: TExecutor, scope: TScope) {
  const rows = await db
    .select()
    .from(requestTemplates)
    .where(eq(requestTemplates.orgId, scope.orgId))
    .orderBy(asc(sql`lower(${requestTemplates.name})`), asc(requestTemplates.id))
    .limit(500);
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    sectionCount: t.sections.length,
    itemCount: itemCount(t),
    updatedAt: t.updatedAt,
  }));
}

export async function getTemplate(db: TExecutor, scope: TScope, templateId: string) {
  const [row] = await db
    .select()
    .from(requestTemplates)
    .where(and(eq(requestTemplates.orgId, scope.orgId), eq(requestTemplates.id, templateId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Creates a template, or replaces one's name, description and sections (requests sent keep theirs). */
export async function saveTemplate(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZRequestTemplateSave>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const values = { name: input.name, description: input.description, sections: input.sections };
    if (!input.templateId) {
      const [created] = await tx
        .insert(requestTemplates)
        .values({ orgId: scope.orgId, ...values })
        .returning();
      if (!created) throw new Error('template not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'request_template.create',
        recordType: 'request_template',
        recordId: created.id,
        summary: `Created the request template “${created.name}” (${itemCount(created)} items)`,
      });
      return created;
    }
    const before = await getTemplate(tx, scope, input.templateId);
    const [updated] = await tx
      .update(requestTemplates)
      .set(values)
      .where(and(eq(requestTemplates.orgId, scope.orgId), eq(requestTemplates.id, before.id)))
      .returning();
    if (!updated) throw notFound();
    await audit(tx, actorOf(scope, meta), {
      action: 'request_template.update',
      recordType: 'request_template',
      recordId: updated.id,
      summary: `Edited the request template “${updated.name}” (${itemCount(updated)} items)`,
      changes: {
        ...(before.name !== updated.name ? { name: { from: before.name, to: updated.name } } : {}),
        items: { from: itemCount(before), to: itemCount(updated) },
      },
    });
    return updated;
  });
}

/** A copy named "… (copy)", to make a variant without touching the original. */
export async function copyTemplate(db: TDb, scope: TScope, templateId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const original = await getTemplate(tx, scope, templateId);
    const [copy] = await tx
      .insert(requestTemplates)
      .values({
        orgId: scope.orgId,
        name: `${original.name.slice(0, 113)} (copy)`,
        description: original.description,
        sections: original.sections,
      })
      .returning();
    if (!copy) throw new Error('template not copied');
    await audit(tx, actorOf(scope, meta), {
      action: 'request_template.copy',
      recordType: 'request_template',
      recordId: copy.id,
      summary: `Copied the request template “${original.name}” as “${copy.name}”`,
    });
    return copy;
  });
}

/** Deletes a template; requests sent from it keep their items. */
export async function deleteTemplate(db: TDb, scope: TScope, templateId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const template = await getTemplate(tx, scope, templateId);
    await tx
      .delete(requestTemplates)
      .where(and(eq(requestTemplates.orgId, scope.orgId), eq(requestTemplates.id, template.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'request_template.delete',
      recordType: 'request_template',
      recordId: template.id,
      summary: `Deleted the request template “${template.name}”`,
    });
    return { id: template.id };
  });
}
