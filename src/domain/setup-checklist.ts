// The new firm's set-up checklist on the home page: what a firm does in its first days, each step
// done when the firm's own data says so (never a box ticked by hand), until all are done or someone
// who sets the firm up dismisses it.

export const SETUP_STEPS = ['team', 'services', 'templates', 'clients', 'rates', 'portal'] as const;
export type TSetupStep = (typeof SETUP_STEPS)[number];

/** The facts each step's state is read from: counts the server takes from the firm's tables. */
export type TSetupFacts = {
  /** Members besides the owner, and invitations still open. */
  otherMembers: number;
  openInvites: number;
  services: number;
  projectTemplates: number;
  clients: number;
  rates: number;
  portalUsers: number;
};

export type TSetupStepView = {
  key: TSetupStep;
  title: string;
  description: string;
  /** Where the step is done, as an app path. */
  href: string;
  action: string;
  done: boolean;
};

const STEP_TEXT: Record<TSetupStep, Omit<TSetupStepView, 'key' | 'done'>> = {
  team: {
    title: 'Invite your team',
    description: 'Each person gets their own sign-in, with a role that decides what they see.',
    href: '/team/members',
    action: 'Invite people',
  },
  services: {
    title: 'Add the services you offer',
    description: 'Returns, audits and bookkeeping, each with how often it recurs and when it is due.',
    href: '/admin/services',
    action: 'Add services',
  },
  templates: {
    title: 'Describe how the work is done',
    description: 'A project template lists the tasks of a service, so every client’s work starts the same.',
    href: '/admin/templates/projects',
    action: 'Add a template',
  },
  clients: {
    title: 'Import your clients',
    description: 'From a spreadsheet, or one at a time.',
    href: '/clients',
    action: 'Add clients',
  },
  rates: {
    title: 'Set billing rates',
    description: 'Hourly rates put a value on the time your team logs, in reports and on approval.',
    href: '/team/timesheets?view=rates',
    action: 'Set rates',
  },
  portal: {
    title: 'Invite a client to the portal',
    description: 'Clients upload documents and finish their to-dos there. Open a client, then Portal users.',
    href: '/clients',
    action: 'Choose a client',
  },
};

function isDone(step: TSetupStep, facts: TSetupFacts): boolean {
  switch (step) {
    case 'team':
      return facts.otherMembers + facts.openInvites > 0;
    case 'services':
      return facts.services > 0;
    case 'templates':
      return facts.projectTemplates > 0;
    case 'clients':
      return facts.clients > 0;
    case 'rates':
      return facts.rates > 0;
    case 'portal':
      return facts.portalUsers > 0;
  }
}

/** The steps in order, each with whether the firm's data shows it done. */
export function setupSteps(facts: TSetupFacts): TSetupStepView[] {
  return SETUP_STEPS.map((key) => ({ key, ...STEP_TEXT[key], done: isDone(key, facts) }));
}

/** The key in orgs.settings that holds when, and by whom, the checklist was dismissed. */
export const SETUP_DISMISSED_SETTING = 'setupChecklistDismissed';

/** Whether the home shows the checklist: not dismissed, and some step still to do. */
export function showSetupChecklist(steps: readonly TSetupStepView[], dismissed: boolean): boolean {
  return !dismissed && steps.some((s) => !s.done);
}
