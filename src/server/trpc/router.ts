import { accountRouter } from '../features/account/router';
import { authRouter } from '../features/auth/router';
import {
  clientPortalDocumentsRouter,
  clientPortalHomeRouter,
  clientPortalProjectsRouter,
  clientPortalTasksRouter,
} from '../features/client-portal/router';
import { clientUsersRouter } from '../features/client-users/router';
import { clientsRouter } from '../features/clients';
import { dashboardRouter } from '../features/dashboard/router';
import { documentsRouter } from '../features/documents/router';
import { notificationsRouter } from '../features/notifications/router';
import { onboardingRouter } from '../features/onboarding/router';
import { clientPortalAuthRouter } from '../features/portal-auth/router';
import { clientPortalProfileRouter, profileRouter } from '../features/profile/router';
import { projectTemplatesRouter } from '../features/project-templates/router';
import { projectsRouter } from '../features/projects/router';
import { remindersRouter } from '../features/reminders/router';
import { rolesRouter } from '../features/roles/router';
import { catalogueRouters } from '../features/services/routers';
import { settingsRouter } from '../features/settings/router';
import { systemLogRouter } from '../features/system-log/router';
import { tasksRouter } from '../features/tasks/router';
import { invitesRouter, teamRouter } from '../features/team/router';
import { vaultRouter } from '../features/vault/router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  onboarding: onboardingRouter,
  profile: profileRouter,
  clientPortalProfile: clientPortalProfileRouter,
  clientPortalAuth: clientPortalAuthRouter,
  clientPortalHome: clientPortalHomeRouter,
  clientPortalDocuments: clientPortalDocumentsRouter,
  clientPortalProjects: clientPortalProjectsRouter,
  clientPortalTasks: clientPortalTasksRouter,
  systemLog: systemLogRouter,
  roles: rolesRouter,
  team: teamRouter,
  invites: invitesRouter,
  settings: settingsRouter,
  notifications: notificationsRouter,
  account: accountRouter,
  ...catalogueRouters,
  clients: clientsRouter,
  clientUsers: clientUsersRouter,
  projects: projectsRouter,
  projectTemplates: projectTemplatesRouter,
  tasks: tasksRouter,
  reminders: remindersRouter,
  vault: vaultRouter,
  dashboard: dashboardRouter,
  documents: documentsRouter,
});

export type AppRouter = typeof appRouter;
