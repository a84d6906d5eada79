import { sql } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';
import { projectTemplates, services, templateTasks } from '../../src/server/db/schema';

type TBlueprint = {
  title: string;
  offset: number;
  role: 'Manager' | 'Staff';
  forClient?: boolean;
  checklist?: string[];
};

type TDemoService = {
  name: string;
  code: string;
  category: string;
  frequency: 'monthly' | 'quarterly' | 'yearly' | 'half_yearly' | 'one_time';
  due: { dayOfMonth: number; monthsAfterPeriod: number };
  fee: number;
  /** Clients engaged, as a share of the book. */
  share: number;
  template?: { name: string; tasks: TBlueprint[] };
};

const SERVICES: TDemoService[] = [
  {
    name: 'GST Return (GSTR-3B)',
    code: 'GST3B',
    category: 'Indirect tax',
    frequency: 'monthly',
    due: { dayOfMonth: 20, monthsAfterPeriod: 1 },
    fee: 3000,
    share: 0.5,
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
    name: 'TDS Return',
    code: 'TDS',
    category: 'Direct tax',
    frequency: 'quarterly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 1 },
    fee: 4500,
    share: 0.25,
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
    name: 'Income Tax Return',
    code: 'ITR',
    category: 'Direct tax',
    frequency: 'yearly',
    due: { dayOfMonth: 31, monthsAfterPeriod: 4 },
    fee: 7500,
    share: 0.6,
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
    name: 'Statutory Audit',
    code: 'AUDIT',
    category: 'Assurance',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 6 },
    fee: 60000,
    share: 0.1,
    template: {
      name: 'Statutory audit',
      tasks: [
        { title: 'Send the audit requirement list', offset: 15, role: 'Manager', forClient: false },
        { title: 'Upload trial balance and ledgers', offset: 45, role: 'Staff', forClient: true },
        { title: 'Vouching and verification', offset: 120, role: 'Staff' },
        { title: 'Draft audit report', offset: 160, role: 'Manager' },
      ],
    },
  },
  {
    name: 'Bookkeeping',
    code: 'BOOKS',
    category: 'Accounting',
    frequency: 'monthly',
    due: { dayOfMonth: 10, monthsAfterPeriod: 1 },
    fee: 5000,
    share: 0.3,
  },
  {
    name: 'Payroll',
    code: 'PAYROLL',
    category: 'Accounting',
    frequency: 'monthly',
    due: { dayOfMonth: 7, monthsAfterPeriod: 1 },
    fee: 2500,
    share: 0.12,
  },
  {
    name: 'ROC Annual Filing',
    code: 'ROC',
    category: 'Company law',
    frequency: 'yearly',
    due: { dayOfMonth: 30, monthsAfterPeriod: 7 },
    fee: 12000,
    share: 0.15,
  },
];

/** The catalogue: services with their due-date rules, the usual ones with a template of tasks. */
export async function createDemoCatalogue(
  db: TDb,
  orgId: string,
  roleIds: Record<'Manager' | 'Staff', string>,
) {
  const serviceIds: Array<{ id: string; share: number }> = [];
  for (const service of SERVICES) {
    let templateId: string | null = null;
    if (service.template) {
      const [template] = await db
        .insert(projectTemplates)
        .values({ orgId, name: service.template.name, description: `The steps of a ${service.name}` })
        .returning({ id: projectTemplates.id });
      if (!template) throw new Error('template not created');
      templateId = template.id;
      await db.insert(templateTasks).values(
        service.template.tasks.map((task, position) => ({
          orgId,
          templateId: template.id,
          position,
          title: task.title,
          dueOffsetDays: task.offset,
          assigneeRoleId: roleIds[task.role],
          checklist: task.checklist ?? [],
          forClient: task.forClient ?? false,
          tags: [service.code.toLowerCase()],
        })),
      );
    }
    const [row] = await db
      .insert(services)
      .values({
        orgId,
        name: service.name,
        code: service.code,
        category: service.category,
        frequency: service.frequency,
        dueDateRule: service.due,
        defaultFee: String(service.fee),
        projectTemplateId: templateId,
      })
      .returning({ id: services.id });
    if (!row) throw new Error('service not created');
    serviceIds.push({ id: row.id, share: service.share });
  }
  return serviceIds;
}

/** Engagements: each client takes each service with the service's share, from the start of the fiscal year. */
export async function createDemoEngagements(
  db: TDb,
  orgId: string,
  catalogue: Array<{ id: string; share: number }>,
) {
  for (const [i, service] of catalogue.entries()) {
    await db.execute(sql`
      insert into client_services (id, org_id, client_id, service_id, start_date, fee)
      select gen_random_uuid(), c.org_id, c.id, ${service.id}::uuid, '2025-04-01', s.default_fee
      from clients c join services s on s.org_id = c.org_id and s.id = ${service.id}::uuid
      where c.org_id = ${orgId}::uuid
        and (hashtext(c.id::text || ${String(i)}) & 2147483647) % 1000 < ${Math.round(service.share * 1000)}`);
  }
}
