import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZProjectStageSet, ZStagesSet } from '../../../domain/automations';
import { actorOf, type TActor, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, members, projects, projectTemplates, templateStages } from '../../db/schema';
import { memberName } from '../../db/sql';
import { emitAutomationEvent } from '../../events';
import { clientVisibility } from '../clients';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { visibleProjectForStage } from './access';

export type TStage = { id: string; name: string; position: number };

async function templateOf(db: TExecutor, orgId: string, templateId: string, lock = false) {
  const query = db
    .select({ id: projectTemplates.id, name: projectTemplates.name })
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, orgId), eq(projectTemplates.id, templateId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
  return row;
}

export async function stagesOf(db: TExecutor, orgId: string, templateId: string): Promise<TStage[]> {
  return db
    .select({ id: templateStages.id, name: templateStages.name, position: templateStages.position })
    .from(templateStages)
    .where(and(eq(templateStages.orgId, orgId), eq(templateStages.templateId, templateId)))
    .orderBy(asc(templateStages.position), asc(templateStages.id));
}

export async function listStages(db: TExecutor, scope: TScope, templateId: string) {
  const template = await templateOf(db, scope.orgId, templateId);
  return { template, stages: await stagesOf(db, scope.orgId, templateId) };
}

/**
 * Replaces a template's stages with the list given, in its order: a stage sent with its id keeps it
 * (and its projects), one without is new, one left out is removed (its projects leave every stage).
 * Projects of the template that were in no stage start in the first one.
 */
export async function setStages(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZStagesSet>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const template = await templateOf(tx, scope.orgId, input.templateId, true);
    const before = await stagesOf(tx, scope.orgId, template.id);
    const known = new Set(before.map((s) => s.id));
    for (const s of input.stages) {
      if (s.id && !known.has(s.id)) throw new TRPCError({ code: 'NOT_FOUND', message: 'Stage not found' });
    }
    const kept = input.stages.flatMap((s) => (s.id ? [s.id] : []));
    await tx
      .delete(templateStages)
      .where(
        and(
          eq(templateStages.orgId, scope.orgId),
          eq(templateStages.templateId, template.id),
          kept.length ? notInArray(templateStages.id, kept) : undefined,
        ),
      );
    // Positions move out of the way first, so renumbering never collides mid-way.
    for (const [i, s] of input.stages.entries()) {
      if (s.id) {
        await tx
          .update(templateStages)
          .set({ name: s.name, position: i + 1, updatedAt: new Date() })
          .where(and(eq(templateStages.orgId, scope.orgId), eq(templateStages.id, s.id)));
      } else {
        await tx
          .insert(templateStages)
          .values({ orgId: scope.orgId, templateId: template.id, position: i + 1, name: s.name });
      }
    }
    const after = await stagesOf(tx, scope.orgId, template.id);
    const first = after[0];
    if (first) {
      await tx
        .update(projects)
        .set({ stageId: first.id })
        .where(
          and(
            eq(projects.orgId, scope.orgId),
            eq(projects.templateId, template.id),
            isNull(projects.stageId),
          ),
        );
    }
    const names = (list: TStage[]) => list.map((s) => s.name).join(' → ') || 'none';
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.stages',
      recordType: 'projectTemplate',
      recordId: template.id,
      summary: `Set the stages of ${template.name}: ${names(after)}`,
      changes: { stages: { from: names(before), to: names(after) } },
    });
    return { stages: after };
  });
}

/**
 * Moves a project to a stage of its template (the board, the project page, a rule): the log row, a
 * notification to the project's owner (unless the owner moved it) and the "entered a stage" event.
 */
export async function moveToStage(
  tx: TExecutor,
  actor: TActor,
  project: {
    id: string;
    orgId: string;
    name: string;
    clientId: string;
    templateId: string | null;
    stageId: string | null;
    ownerId: string | null;
  },
  stage: TStage | null,
  cause: { depth: number; ruleId: string } | null = null,
) {
  if ((stage?.id ?? null) === project.stageId) return { moved: false };
  const stages = project.templateId ? await stagesOf(tx, project.orgId, project.templateId) : [];
  const from = stages.find((s) => s.id === project.stageId)?.name ?? 'no stage';
  await tx
    .update(projects)
    .set({ stageId: stage?.id ?? null, updatedAt: new Date() })
    .where(and(eq(projects.orgId, project.orgId), eq(projects.id, project.id)));
  await audit(tx, actor, {
    action: 'project.stage',
    recordType: 'project',
    recordId: project.id,
    summary: `Moved the project ${project.name} from ${from} to ${stage?.name ?? 'no stage'}`,
    changes: { stage: { from, to: stage?.name ?? null } },
  });
  if (project.ownerId && !(actor.kind === 'member' && actor.memberId === project.ownerId)) {
    await notify(tx, {
      orgId: project.orgId,
      memberIds: [project.ownerId],
      kind: 'project.stage',
      title: `${project.name} moved to ${stage?.name ?? 'no stage'}`,
      body: actor.kind === 'automation' ? `By rule ${actor.ruleName}` : undefined,
      link: `/projects/${project.id}`,
    });
  }
  if (stage) {
    await emitAutomationEvent(tx, {
      orgId: project.orgId,
      kind: 'project.stage_entered',
      projectId: project.id,
      clientId: project.clientId,
      data: { stageId: stage.id, stageName: stage.name },
      cause,
    });
  }
  return { moved: true };
}

export async function setProjectStage(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProjectStageSet>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const project = await visibleProjectForStage(tx, scope, input.projectId);
    let stage: TStage | null = null;
    if (input.stageId) {
      const stages = project.templateId ? await stagesOf(tx, scope.orgId, project.templateId) : [];
      stage = stages.find((s) => s.id === input.stageId) ?? null;
      if (!stage) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'stageId: choose one of the project’s template stages',
        });
      }
    }
    const result = await moveToStage(tx, actorOf(scope, meta), project, stage);
    return { id: project.id, ...result };
  });
}

export const BOARD_COLUMN_LIMIT = 50;

/** /projects by stage for one template: a column per stage (and one for projects in none). */
export async function stageBoard(db: TExecutor, scope: TScope, templateId: string) {
  const template = await templateOf(db, scope.orgId, templateId);
  const stages = await stagesOf(db, scope.orgId, templateId);
  const visible = clientVisibility(scope, projects.clientId);
  const where = and(
    eq(projects.orgId, scope.orgId),
    eq(projects.templateId, templateId),
    isNull(projects.archivedAt),
    visible,
  );
  const ranked = db
    .select({
      id: projects.id,
      name: projects.name,
      stageId: projects.stageId,
      status: projects.status,
      dueDate: projects.dueDate,
      clientId: projects.clientId,
      ownerId: projects.ownerId,
      rank: sql<number>`row_number() over (partition by ${projects.stageId} order by ${projects.dueDate} asc nulls last, ${projects.id})`.as(
        'rank',
      ),
    })
    .from(projects)
    .where(where)
    .as('ranked');
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: ranked.id,
        name: ranked.name,
        stageId: ranked.stageId,
        status: ranked.status,
        dueDate: ranked.dueDate,
        clientName: clients.name,
        ownerName: sql<string | null>`${memberName}`,
      })
      .from(ranked)
      .innerJoin(clients, and(eq(clients.orgId, scope.orgId), eq(clients.id, ranked.clientId)))
      .leftJoin(members, and(eq(members.orgId, scope.orgId), eq(members.id, ranked.ownerId)))
      .where(sql`${ranked.rank} <= ${BOARD_COLUMN_LIMIT}`)
      .orderBy(sql`${ranked.dueDate} asc nulls last`, asc(ranked.id)),
    db
      .select({ stageId: projects.stageId, total: count() })
      .from(projects)
      .where(where)
      .groupBy(projects.stageId),
  ]);
  const column = (stageId: string | null, name: string) => ({
    stageId,
    name,
    total: totals.find((t) => t.stageId === stageId)?.total ?? 0,
    rows: rows.filter((r) => r.stageId === stageId),
  });
  const columns = stages.map((s) => column(s.id, s.name));
  const none = column(null, 'No stage');
  return { template, stages, columns: none.total ? [none, ...columns] : columns };
}

export async function stagesByIds(db: TExecutor, orgId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: templateStages.id, name: templateStages.name })
    .from(templateStages)
    .where(and(eq(templateStages.orgId, orgId), inArray(templateStages.id, ids)));
}
