import { TRPCError } from '@trpc/server';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { TProposalContent, ZProposalTemplateSave } from '../../../domain/proposals';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { proposalTemplates, requestTemplates } from '../../db/schema';
import { audit } from '../system-log';
import { sanitizeLetter, serviceNames } from './render';

// Proposal and letter templates (/admin/templates/proposals): the letter, packages, add-ons, terms.

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });

/** Every service named must be this firm's; the letter is sanitised as the editor's HTML is. */
export async function checkedContent(db: TExecutor, orgId: string, content: TProposalContent) {
  const names = await serviceNames(db, orgId, content);
  const all = [...content.packages.flatMap((p) => p.services), ...content.addOns];
  if (all.some((s) => !names.has(s.serviceId))) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose services from your catalogue' });
  }
  const requestTemplateId = content.followUp.requestTemplateId;
  if (requestTemplateId) {
    const [found] = await db
      .select({ id: requestTemplates.id })
      .from(requestTemplates)
      .where(and(eq(requestTemplates.orgId, orgId), eq(requestTemplates.id, requestTemplateId)))
      .limit(1);
    if (!found) throw new TRPCError({ code: 'NOT_FOUND', message: 'Request template not found' });
  }
  const letterHtml = sanitizeLetter(content.letterHtml);
  if (!letterHtml.trim()) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Write the letter' });
  return { ...content, letterHtml };
}

export async function listTemplates(db: TExecutor, scope: TScope) {
  const rows = await db
    .select()
    .from(proposalTemplates)
    .where(eq(proposalTemplates.orgId, scope.orgId))
    .orderBy(asc(proposalTemplates.name), asc(proposalTemplates.id))
    .limit(500);
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    packageCount: t.packages.length,
    addOnCount: t.addOns.length,
    updatedAt: t.updatedAt,
  }));
}

export async function getTemplate(db: TExecutor, scope: TScope, templateId: string) {
  const [row] = await db
    .select()
    .from(proposalTemplates)
    .where(and(eq(proposalTemplates.orgId, scope.orgId), eq(proposalTemplates.id, templateId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function saveTemplate(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProposalTemplateSave>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    // Another firm's template is not found, whatever else the input names.
    const before = input.templateId ? await getTemplate(tx, scope, input.templateId) : null;
    const content = await checkedContent(tx, scope.orgId, input);
    const values = {
      name: input.name,
      letterHtml: content.letterHtml,
      packages: content.packages,
      addOns: content.addOns,
      terms: content.terms,
      followUp: content.followUp,
    };
    if (!before) {
      const [created] = await tx
        .insert(proposalTemplates)
        .values({ orgId: scope.orgId, ...values })
        .returning();
      if (!created) throw new Error('template not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'proposal_template.create',
        recordType: 'proposal_template',
        recordId: created.id,
        summary: `Created the proposal template “${created.name}”`,
      });
      return created;
    }
    const [updated] = await tx
      .update(proposalTemplates)
      .set(values)
      .where(and(eq(proposalTemplates.orgId, scope.orgId), eq(proposalTemplates.id, before.id)))
      .returning();
    if (!updated) throw notFound();
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal_template.update',
      recordType: 'proposal_template',
      recordId: updated.id,
      summary: `Edited the proposal template “${updated.name}”`,
      ...(before.name !== updated.name ? { changes: { name: { from: before.name, to: updated.name } } } : {}),
    });
    return updated;
  });
}

export async function deleteTemplate(db: TDb, scope: TScope, templateId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const template = await getTemplate(tx, scope, templateId);
    await tx
      .delete(proposalTemplates)
      .where(and(eq(proposalTemplates.orgId, scope.orgId), eq(proposalTemplates.id, template.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal_template.delete',
      recordType: 'proposal_template',
      recordId: template.id,
      summary: `Deleted the proposal template “${template.name}”`,
    });
    return { id: template.id };
  });
}
