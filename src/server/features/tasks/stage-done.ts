import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { projects, tasks, templateStages } from '../../db/schema';
import { emitAutomationEvent } from '../../events';

/**
 * After tasks are completed: each (project, stage) whose last open task this was records the event
 * "all tasks of a stage done" (once: the project rows are locked first, so of two completions racing
 * for a stage's last two tasks the second sees the first and records it, the first does not).
 */
export async function recordStagesDone(
  tx: TExecutor,
  orgId: string,
  completed: readonly { projectId: string | null; stageId: string | null }[],
) {
  const pairs = new Map<string, { projectId: string; stageId: string }>();
  for (const c of completed)
    if (c.projectId && c.stageId)
      pairs.set(`${c.projectId}:${c.stageId}`, { projectId: c.projectId, stageId: c.stageId });
  if (!pairs.size) return 0;
  const projectIds = [...new Set([...pairs.values()].map((p) => p.projectId))];
  const stageIds = [...new Set([...pairs.values()].map((p) => p.stageId))];
  const locked = await tx
    .select({ id: projects.id, clientId: projects.clientId, stageId: projects.stageId })
    .from(projects)
    .where(and(eq(projects.orgId, orgId), inArray(projects.id, projectIds)))
    .orderBy(asc(projects.id))
    .for('update');
  const [open, stages] = await Promise.all([
    tx
      .selectDistinct({ projectId: tasks.projectId, stageId: tasks.stageId })
      .from(tasks)
      .where(
        and(
          eq(tasks.orgId, orgId),
          inArray(tasks.stageId, stageIds),
          inArray(tasks.projectId, projectIds),
          ne(tasks.status, 'COMPLETED'),
        ),
      ),
    tx
      .select({ id: templateStages.id, name: templateStages.name })
      .from(templateStages)
      .where(and(eq(templateStages.orgId, orgId), inArray(templateStages.id, stageIds))),
  ]);
  const stillOpen = new Set(open.map((o) => `${o.projectId}:${o.stageId}`));
  const projectOf = new Map(locked.map((p) => [p.id, p]));
  const nameOf = new Map(stages.map((s) => [s.id, s.name]));
  let recorded = 0;
  for (const [key, pair] of pairs) {
    const project = projectOf.get(pair.projectId);
    const name = nameOf.get(pair.stageId);
    if (stillOpen.has(key) || !project || !name) continue;
    await emitAutomationEvent(tx, {
      orgId,
      kind: 'project.stage_tasks_done',
      projectId: project.id,
      clientId: project.clientId,
      data: { stageId: pair.stageId, stageName: name, current: project.stageId === pair.stageId },
    });
    recorded++;
  }
  return recorded;
}
