import {
  ZProjectStageSet,
  ZReadyMade,
  ZRuleEnable,
  ZRuleInput,
  ZRuleRef,
  ZRuleUpdate,
  ZRunsInput,
  ZStagesRef,
  ZStagesSet,
} from '../../../domain/automations';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  addReadyMade,
  createRule,
  deleteRule,
  getRule,
  listRules,
  listRuns,
  previewRule,
  setRuleEnabled,
  templateRules,
  updateRule,
} from './rules';
import { listStages, setProjectStage, setStages, stageBoard } from './stages';

/** A template's stages, the board by stage, and a project's move between them. */
export const stagesRouter = router({
  list: permissionProcedure('projects.view')
    .input(ZStagesRef)
    .query(({ ctx, input }) => listStages(ctx.db, ctx.scope, input.templateId)),
  set: permissionProcedure('templates.edit')
    .input(ZStagesSet)
    .mutation(({ ctx, input }) => setStages(ctx.db, ctx.scope, input, ctx.meta)),
  board: permissionProcedure('projects.view')
    .input(ZStagesRef)
    .query(({ ctx, input }) => stageBoard(ctx.db, ctx.scope, input.templateId)),
  move: permissionProcedure('projects.edit')
    .input(ZProjectStageSet)
    .mutation(({ ctx, input }) => setProjectStage(ctx.db, ctx.scope, input, ctx.meta)),
});

export const automationsRouter = router({
  list: permissionProcedure('automations.manage').query(({ ctx }) => listRules(ctx.db, ctx.scope)),
  get: permissionProcedure('automations.manage')
    .input(ZRuleRef)
    .query(({ ctx, input }) => getRule(ctx.db, ctx.scope, input.ruleId)),
  create: permissionProcedure('automations.manage')
    .input(ZRuleInput)
    .mutation(({ ctx, input }) => createRule(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('automations.manage')
    .input(ZRuleUpdate)
    .mutation(({ ctx, input: { ruleId, ...values } }) =>
      updateRule(ctx.db, ctx.scope, ruleId, values, ctx.meta),
    ),
  setEnabled: permissionProcedure('automations.manage')
    .input(ZRuleEnable)
    .mutation(({ ctx, input }) => setRuleEnabled(ctx.db, ctx.scope, input.ruleId, input.enabled, ctx.meta)),
  delete: permissionProcedure('automations.manage')
    .input(ZRuleRef)
    .mutation(({ ctx, input }) => deleteRule(ctx.db, ctx.scope, input.ruleId, ctx.meta)),
  addReadyMade: permissionProcedure('automations.manage')
    .input(ZReadyMade)
    .mutation(({ ctx, input }) => addReadyMade(ctx.db, ctx.scope, input, ctx.meta)),
  forTemplate: permissionProcedure('automations.manage')
    .input(ZStagesRef)
    .query(({ ctx, input }) => templateRules(ctx.db, ctx.scope, input.templateId)),
  preview: permissionProcedure('automations.manage')
    .input(ZRuleInput)
    .query(({ ctx, input }) => previewRule(ctx.db, ctx.scope, input)),
  runs: permissionProcedure('automations.manage')
    .input(ZRunsInput)
    .query(({ ctx, input }) => listRuns(ctx.db, ctx.scope, input)),
});
