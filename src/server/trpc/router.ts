import { accountRouter } from '../features/account';
import { apiKeysRouter } from '../features/api';
import { authRouter } from '../features/auth';
import { automationsRouter, stagesRouter } from '../features/automations';
import { billingRouter } from '../features/billing';
import { broadcastsRouter, broadcastTemplatesRouter } from '../features/broadcasts';
import { clientGroupsRouter } from '../features/client-groups';
import {
  clientPortalCalendarRouter,
  clientPortalDocumentsRouter,
  clientPortalHomeRouter,
  clientPortalInvoicesRouter,
  clientPortalProjectsRouter,
  clientPortalTasksRouter,
} from '../features/client-portal';
import { clientUsersRouter } from '../features/client-users';
import { clientsRouter } from '../features/clients';
import { dashboardRouter } from '../features/dashboard';
import { documentsRouter } from '../features/documents';
import { engagementsRouter } from '../features/engagements';
import { firmExportRouter } from '../features/firm-export';
import { leaveRouter } from '../features/leave';
import { linksRouter } from '../features/links';
import { clientPortalMessagesRouter, messagesRouter } from '../features/messages';
import { notificationsRouter } from '../features/notifications';
import { onboardingRouter } from '../features/onboarding';
import { clientPortalAuthRouter } from '../features/portal-auth';
import { clientPortalProfileRouter, profileRouter } from '../features/profile';
import { projectTemplatesRouter } from '../features/project-templates';
import { projectsRouter } from '../features/projects';
import { clientPortalSigningRouter, proposalsRouter, signingRouter } from '../features/proposals';
import { remindersRouter } from '../features/reminders';
import { reportsRouter } from '../features/reports';
import { clientPortalRequestsRouter, requestsRouter } from '../features/requests';
import { rolesRouter } from '../features/roles';
import { securityRouter } from '../features/security';
import { servicesRouter } from '../features/services';
import { settingsRouter } from '../features/settings';
import { statutoryRouter } from '../features/statutory';
import { systemLogRouter } from '../features/system-log';
import { tasksRouter } from '../features/tasks';
import { invitesRouter, teamRouter } from '../features/team';
import { timesheetsRouter } from '../features/timesheets';
import { vaultRouter } from '../features/vault';
import { webhooksRouter } from '../features/webhooks';
import { router } from './init';

export const appRouter = router({
  apiKeys: apiKeysRouter,
  webhooks: webhooksRouter,
  auth: authRouter,
  automations: automationsRouter,
  stages: stagesRouter,
  onboarding: onboardingRouter,
  profile: profileRouter,
  clientPortalProfile: clientPortalProfileRouter,
  clientPortalCalendar: clientPortalCalendarRouter,
  clientPortalAuth: clientPortalAuthRouter,
  clientPortalHome: clientPortalHomeRouter,
  clientPortalDocuments: clientPortalDocumentsRouter,
  clientPortalInvoices: clientPortalInvoicesRouter,
  clientPortalProjects: clientPortalProjectsRouter,
  clientPortalTasks: clientPortalTasksRouter,
  clientPortalRequests: clientPortalRequestsRouter,
  clientPortalMessages: clientPortalMessagesRouter,
  systemLog: systemLogRouter,
  roles: rolesRouter,
  team: teamRouter,
  invites: invitesRouter,
  settings: settingsRouter,
  notifications: notificationsRouter,
  account: accountRouter,
  security: securityRouter,
  services: servicesRouter,
  statutory: statutoryRouter,
  clientGroups: clientGroupsRouter,
  billing: billingRouter,
  engagements: engagementsRouter,
  clients: clientsRouter,
  clientUsers: clientUsersRouter,
  projects: projectsRouter,
  projectTemplates: projectTemplatesRouter,
  tasks: tasksRouter,
  reminders: remindersRouter,
  requests: requestsRouter,
  proposals: proposalsRouter,
  signing: signingRouter,
  clientPortalSigning: clientPortalSigningRouter,
  messages: messagesRouter,
  reports: reportsRouter,
  vault: vaultRouter,
  dashboard: dashboardRouter,
  documents: documentsRouter,
  timesheets: timesheetsRouter,
  leave: leaveRouter,
  firmExport: firmExportRouter,
  links: linksRouter,
  broadcasts: broadcastsRouter,
  broadcastTemplates: broadcastTemplatesRouter,
});

export type AppRouter = typeof appRouter;
