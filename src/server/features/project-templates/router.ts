import {
  ZBlueprintCreate,
  ZBlueprintMove,
  ZBlueprintRef,
  ZBlueprintUpdate,
  ZTemplateInput,
  ZTemplateListInput,
  ZTemplateRef,
  ZTemplateUpdate,
} from '../../../domain/project-templates';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  addBlueprint,
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  moveBlueprint,
  removeBlueprint,
  setTemplateArchived,
  templateOptions,
  updateBlueprint,
  updateTemplate,
} from './service';

const blueprintsRouter = router({
  add: permissionProcedure('templates.edit')
    .input(ZBlueprintCreate)
    .mutation(({ ctx, input }) => addBlueprint(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('templates.edit')
    .input(ZBlueprintUpdate)
    .mutation(({ ctx, input }) => updateBlueprint(ctx.db, ctx.scope, input, ctx.meta)),
  remove: permissionProcedure('templates.edit')
    .input(ZBlueprintRef)
    .mutation(({ ctx, input }) => removeBlueprint(ctx.db, ctx.scope, input.blueprintId, ctx.meta)),
  move: permissionProcedure('templates.edit')
    .input(ZBlueprintMove)
    .mutation(({ ctx, input }) => moveBlueprint(ctx.db, ctx.scope, input, ctx.meta)),
});

export const projectTemplatesRouter = router({
  list: permissionProcedure('templates.view')
    .input(ZTemplateListInput)
    .query(({ ctx, input }) => listTemplates(ctx.db, ctx.scope, input)),
  /** Names for the service form and the new-project form, which need no right over templates. */
  options: permissionProcedure('projects.view').query(({ ctx }) => templateOptions(ctx.db, ctx.scope)),
  get: permissionProcedure('templates.view')
    .input(ZTemplateRef)
    .query(({ ctx, input }) => getTemplate(ctx.db, ctx.scope, input.templateId)),
  create: permissionProcedure('templates.create')
    .input(ZTemplateInput)
    .mutation(({ ctx, input }) => createTemplate(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('templates.edit')
    .input(ZTemplateUpdate)
    .mutation(({ ctx, input: { templateId, ...values } }) =>
      updateTemplate(ctx.db, ctx.scope, templateId, values, ctx.meta),
    ),
  archive: permissionProcedure('templates.delete')
    .input(ZTemplateRef)
    .mutation(({ ctx, input }) => setTemplateArchived(ctx.db, ctx.scope, input.templateId, true, ctx.meta)),
  restore: permissionProcedure('templates.delete')
    .input(ZTemplateRef)
    .mutation(({ ctx, input }) => setTemplateArchived(ctx.db, ctx.scope, input.templateId, false, ctx.meta)),
  delete: permissionProcedure('templates.delete')
    .input(ZTemplateRef)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.scope, input.templateId, ctx.meta)),
  blueprints: blueprintsRouter,
});
