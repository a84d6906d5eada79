import {
  ZClientSearch,
  ZProjectBoardInput,
  ZProjectCreate,
  ZProjectListInput,
  ZProjectMember,
  ZProjectRef,
  ZProjectStatus,
  ZProjectUpdate,
} from '../../../domain/projects';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { getProject } from './detail';
import { listProjects, projectBoard } from './list';
import { addProjectMember, removeProjectMember } from './members';
import { projectOptions, searchClients } from './options';
import { createProject, deleteProject, setProjectArchived, setProjectStatus, updateProject } from './service';

export const projectsRouter = router({
  list: permissionProcedure('projects.view')
    .input(ZProjectListInput)
    .query(({ ctx, input }) => listProjects(ctx.db, ctx.scope, input)),
  board: permissionProcedure('projects.view')
    .input(ZProjectBoardInput)
    .query(({ ctx, input }) => projectBoard(ctx.db, ctx.scope, input)),
  get: permissionProcedure('projects.view')
    .input(ZProjectRef)
    .query(({ ctx, input }) => getProject(ctx.db, ctx.scope, input.projectId)),
  options: permissionProcedure('projects.view').query(({ ctx }) => projectOptions(ctx.db, ctx.scope)),
  clients: permissionProcedure('projects.view')
    .input(ZClientSearch)
    .query(({ ctx, input }) => searchClients(ctx.db, ctx.scope, input)),
  create: permissionProcedure('projects.create')
    .input(ZProjectCreate)
    .mutation(({ ctx, input }) => createProject(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('projects.edit')
    .input(ZProjectUpdate)
    .mutation(({ ctx, input }) => updateProject(ctx.db, ctx.scope, input, ctx.meta)),
  setStatus: permissionProcedure('projects.edit')
    .input(ZProjectStatus)
    .mutation(({ ctx, input }) => setProjectStatus(ctx.db, ctx.scope, input, ctx.meta)),
  addMember: permissionProcedure('projects.edit')
    .input(ZProjectMember)
    .mutation(({ ctx, input }) => addProjectMember(ctx.db, ctx.scope, input, ctx.meta)),
  removeMember: permissionProcedure('projects.edit')
    .input(ZProjectMember)
    .mutation(({ ctx, input }) => removeProjectMember(ctx.db, ctx.scope, input, ctx.meta)),
  archive: permissionProcedure('projects.delete')
    .input(ZProjectRef)
    .mutation(({ ctx, input }) => setProjectArchived(ctx.db, ctx.scope, input.projectId, true, ctx.meta)),
  restore: permissionProcedure('projects.delete')
    .input(ZProjectRef)
    .mutation(({ ctx, input }) => setProjectArchived(ctx.db, ctx.scope, input.projectId, false, ctx.meta)),
  delete: permissionProcedure('projects.delete')
    .input(ZProjectRef)
    .mutation(({ ctx, input }) => deleteProject(ctx.db, ctx.scope, input.projectId, ctx.meta)),
});
