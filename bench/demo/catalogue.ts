import type { TClientType } from '../../src/domain/clients';
import type { TServiceValues } from '../../src/domain/services';
import { rng } from '../generate-util';
import type { TDemoClient } from './clients';
import type { TPersonSession } from './session';
import type { TClientWork } from './time';

// The service catalogue, its project templates and the clients' engagements, entered on the admin
// and client screens. Recurring work is then the product's: each engagement of a service with a
// template gets one project per period, named, dated and staffed by the recurrence rule.

type TBlueprint = {
  title: string;
  /** Days after the period ends. */
  offset: number;
  role: 'Manager' | 'Staff';
  forClient?: boolean;
  checklist?: string[];
};

type TDemoService = {
  input: Omit<TServiceValues, 'projectTemplateId'>;
  /** Who takes it: the client types and the share of them. */
  takenBy: Partial<Record<TClientType, number>>;
  template?: { name: string; tasks: TBlueprint[] };
};

const BUSINESS = { proprietor: 0.45, partnership: 0.6, llp: 0.6, company: 0.65 };

const SERVICES: TDemoService[] = [
  {
    input: {
      name: 'GST Return (GSTR-3B)',
      code: 'GST3B',
      statutoryFilingCode: 'IN.GSTR3B.M',
      category: 'Indirect tax',
      description: 'The monthly GST return',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 20, monthsAfterPeriod: 1 },
      defaultFee: '3000',
      billingMode: 'fixed',
      feeTrigger: 'period_start',
      taxCode: '998231',
    },
    takenBy: BUSINESS,
    template: {
      name: 'Monthly GST return',
      tasks: [
        { title: 'Collect sales and purchase invoices', offset: 5, role: 'Staff', forClient: true },
        {
          title: 'Reconcile with GSTR-2B',
          offset: 12,
          role: 'Staff',
          checklist: ['Match invoices', 'List mismatches'],
        },
        { title: 'Prepare GSTR-3B', offset: 16, role: 'Staff' },
        { title: 'Review GSTR-3B', offset: 18, role: 'Manager' },
        { title: 'File and send the acknowledgement', offset: 20, role: 'Staff' },
      ],
    },
  },
  {
    input: {
      name: 'TDS Return',
      code: 'TDS',
      statutoryFilingCode: 'IN.TDS.26Q',
      category: 'Direct tax',
      description: 'Quarterly TDS statements (Form 24Q / 26Q)',
      frequency: 'quarterly',
      dueDateRule: { dayOfMonth: 31, monthsAfterPeriod: 1 },
      defaultFee: '4500',
      billingMode: 'fixed',
      feeTrigger: 'period_start',
      taxCode: '998231',
    },
    takenBy: { partnership: 0.4, llp: 0.5, company: 0.6 },
    template: {
      name: 'Quarterly TDS return',
      tasks: [
        { title: 'Collect challans and deductee details', offset: 7, role: 'Staff', forClient: true },
        { title: 'Prepare Form 24Q / 26Q', offset: 20, role: 'Staff' },
        { title: 'Review and file', offset: 28, role: 'Manager' },
      ],
    },
  },
  {
    input: {
      name: 'Income Tax Return',
      code: 'ITR',
      category: 'Direct tax',
      description: 'The yearly return of income',
      frequency: 'yearly',
      dueDateRule: { dayOfMonth: 31, monthsAfterPeriod: 4 },
      defaultFee: '7500',
      billingMode: 'fixed',
      feeTrigger: 'project_complete',
      taxCode: '998232',
    },
    takenBy: { individual: 0.85, huf: 0.9, proprietor: 0.7, partnership: 0.4, trust: 0.6 },
    template: {
      name: 'Annual income tax return',
      tasks: [
        {
          title: 'Collect Form 16, bank statements and investment proofs',
          offset: 30,
          role: 'Staff',
          forClient: true,
        },
        { title: 'Compute total income', offset: 75, role: 'Staff' },
        { title: 'Review computation', offset: 100, role: 'Manager' },
        { title: 'File the return and e-verify', offset: 120, role: 'Staff' },
      ],
    },
  },
  {
    input: {
      name: 'Statutory Audit',
      code: 'AUDIT',
      statutoryFilingCode: 'IN.TAR',
      category: 'Assurance',
      description: 'The yearly audit of the accounts',
      frequency: 'yearly',
      dueDateRule: { dayOfMonth: 30, monthsAfterPeriod: 6 },
      defaultFee: '60000',
      billingMode: 'fixed',
      feeTrigger: 'project_complete',
      taxCode: '998221',
    },
    takenBy: { llp: 0.3, company: 0.5, trust: 0.5 },
    template: {
      name: 'Statutory audit',
      tasks: [
        { title: 'Send the audit requirement list', offset: 15, role: 'Manager' },
        { title: 'Upload trial balance and ledgers', offset: 45, role: 'Staff', forClient: true },
        { title: 'Vouching and verification', offset: 120, role: 'Staff' },
        { title: 'Draft audit report', offset: 160, role: 'Manager' },
      ],
    },
  },
  {
    input: {
      name: 'Bookkeeping',
      code: 'BOOKS',
      category: 'Accounting',
      description: null,
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
      defaultFee: '5000',
      billingMode: 'fixed',
      feeTrigger: 'period_start',
      taxCode: '998222',
    },
    takenBy: { proprietor: 0.4, partnership: 0.4, llp: 0.3, company: 0.3 },
  },
  {
    input: {
      name: 'Payroll',
      code: 'PAYROLL',
      category: 'Accounting',
      description: null,
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 7, monthsAfterPeriod: 1 },
      defaultFee: '2500',
      billingMode: 'fixed',
      feeTrigger: 'period_start',
      taxCode: '998223',
    },
    takenBy: { company: 0.3, llp: 0.2 },
  },
  {
    input: {
      name: 'ROC Annual Filing',
      code: 'ROC',
      statutoryFilingCode: 'IN.ROC.AOC4',
      category: 'Company law',
      description: null,
      frequency: 'yearly',
      dueDateRule: { dayOfMonth: 30, monthsAfterPeriod: 7 },
      defaultFee: '12000',
      billingMode: 'fixed',
      feeTrigger: 'manual',
      taxCode: '998399',
    },
    takenBy: { llp: 0.8, company: 0.9 },
  },
  {
    // Engaged for a few clients by hand (advisedBy), billed from the partners' time.
    input: {
      name: 'Advisory',
      code: 'ADVISORY',
      category: 'Advisory',
      description: 'Tax planning and business advice, billed by the hour',
      frequency: 'one_time',
      dueDateRule: null,
      defaultFee: null,
      billingMode: 'hourly',
      taxCode: '998311',
    },
    takenBy: {},
  },
];

export type TDemoCatalogue = { services: Array<{ id: string; code: string; input: TDemoService['input'] }> };

/** Templates with their tasks (by role), and the services, first without their templates. */
/**
 * The hours the firm budgets for a step, as its manager would type them on the template: the client's
 * own to-dos none, a review an hour, filing half an hour, preparing work two hours (three with a
 * checklist to go through).
 */
function budgetOf(task: TBlueprint): string | null {
  if (task.forClient) return null;
  if (task.role === 'Manager') return '1';
  if (/^File\b/.test(task.title)) return '0:30';
  return task.checklist?.length ? '3' : '2';
}

export async function createDemoCatalogue(
  owner: TPersonSession,
  roleIds: Record<'Manager' | 'Staff', string>,
): Promise<TDemoCatalogue & { templateOf: Map<string, string> }> {
  const services: TDemoCatalogue['services'] = [];
  const templateOf = new Map<string, string>();
  for (const service of SERVICES) {
    if (service.template) {
      const { id } = await owner.api.projectTemplates.create({
        name: service.template.name,
        description: `The steps of a ${service.input.name}`,
      });
      for (const task of service.template.tasks) {
        await owner.api.projectTemplates.blueprints.add({
          templateId: id,
          title: task.title,
          dueOffsetDays: task.offset,
          assigneeKind: 'role',
          assigneeRoleId: roleIds[task.role],
          checklist: task.checklist ?? [],
          forClient: task.forClient ?? false,
          tags: [service.input.code.toLowerCase()],
          budgetMinutes: budgetOf(task),
        });
      }
      templateOf.set(service.input.code, id);
    }
    const { id } = await owner.api.services.create({ ...service.input, projectTemplateId: null });
    services.push({ id, code: service.input.code, input: service.input });
  }
  return { services, templateOf };
}

export type TDemoEngagement = { id: string; clientId: string; code: string };

/** Who is billed every month for monthly work: the business groups' companies; the rest by the quarter. */
export const billedMonthly = (client: TDemoClient) =>
  !!client.groupId && (client.type === 'company' || client.type === 'llp');

/**
 * The few clients the owner advises by the hour: companies of the business groups, one in three
 * (at least two).
 */
export function advisedClients(clients: TDemoClient[]) {
  const companies = clients.filter((c) => c.groupId && (c.type === 'company' || c.type === 'llp'));
  const advised = companies.filter((_, i) => i % 3 === 0);
  return advised.length >= 2 ? advised : companies.slice(0, 2);
}

/**
 * Each client's engagements, from `startDate`, with its team as the assignees (the preparer for the
 * staff's tasks, the manager for the review), on the service's fee arrangement (for smaller
 * clients, monthly fees by hand, billed a quarter at a time): fixed fees are billed from `billFrom`, the month the firm starts billing in Practice (the year before it billed
 * outside). One return is done without a fee: a charitable trust's (else a partner's relative's). The
 * advised clients take Advisory, billed by the hour.
 */
export async function createDemoEngagements(
  owner: TPersonSession,
  catalogue: TDemoCatalogue,
  clients: TDemoClient[],
  dates: { startDate: string; billFrom: string },
  seed: number,
): Promise<TDemoEngagement[]> {
  const random = rng(seed * 104_729);
  const planned: Array<{ client: TDemoClient; service: TDemoCatalogue['services'][number] }> = [];
  for (const client of clients) {
    for (const [i, service] of catalogue.services.entries()) {
      if (random() < (SERVICES[i]?.takenBy[client.type] ?? 0)) planned.push({ client, service });
    }
  }
  const returns = planned.filter((p) => p.service.code === 'ITR');
  const free =
    returns.find((p) => p.client.type === 'trust') ?? returns.find((p) => p.client.type === 'individual');
  const made: TDemoEngagement[] = [];
  for (const p of planned) {
    const { client, service } = p;
    const { id } = await owner.api.engagements.create({
      clientId: client.id,
      serviceId: service.id,
      startDate: dates.startDate,
      fee: service.input.defaultFee,
      assigneeIds: [client.preparer.memberId, client.reviewer.memberId],
      billFrom: dates.billFrom,
      // Smaller clients' monthly fees are billed by hand a quarter at a time.
      ...(service.input.frequency === 'monthly' && !billedMonthly(client)
        ? { feeTrigger: 'manual' as const }
        : {}),
      ...(p === free
        ? {
            billingMode: 'none' as const,
            notes:
              client.type === 'trust'
                ? 'Done without a fee: the trust is a charity'
                : "Done without a fee: a partner's relative",
          }
        : {}),
    });
    made.push({ id, clientId: client.id, code: service.code });
  }
  const advisory = catalogue.services.find((s) => s.code === 'ADVISORY');
  if (!advisory) throw new Error('the Advisory service is missing');
  for (const client of advisedClients(clients)) {
    const { id } = await owner.api.engagements.create({
      clientId: client.id,
      serviceId: advisory.id,
      startDate: dates.startDate,
      fee: null,
      assigneeIds: [client.reviewer.memberId],
    });
    made.push({ id, clientId: client.id, code: 'ADVISORY' });
  }
  return made;
}

/** The service client time is for, the most everyday first: the advice only when the owner gives it. */
const TIME_SERVICES = ['BOOKS', 'GST3B', 'PAYROLL', 'TDS', 'AUDIT', 'ROC', 'ITR'];

export function clientWorkOf(
  engagements: TDemoEngagement[],
  services: TDemoCatalogue['services'],
  advised: TDemoClient[],
): TClientWork {
  const idOf = new Map(services.map((s) => [s.code, s.id]));
  const codesOf = new Map<string, Set<string>>();
  for (const e of engagements) codesOf.set(e.clientId, (codesOf.get(e.clientId) ?? new Set()).add(e.code));
  return {
    advised,
    serviceOf(clientId, role) {
      const codes = codesOf.get(clientId);
      if (!codes) return null;
      const advice = codes.has('ADVISORY') && (role === 'Owner' || codes.size === 1);
      const code = advice ? 'ADVISORY' : TIME_SERVICES.find((c) => codes.has(c));
      return (code && idOf.get(code)) ?? null;
    },
  };
}

/** Links each service to its template: from now on its engagements owe a project per period. */
export async function linkDemoTemplates(
  owner: TPersonSession,
  catalogue: TDemoCatalogue,
  templateOf: Map<string, string>,
) {
  for (const service of catalogue.services) {
    const templateId = templateOf.get(service.code);
    if (!templateId) continue;
    await owner.api.services.update({
      serviceId: service.id,
      ...service.input,
      projectTemplateId: templateId,
    });
  }
}
