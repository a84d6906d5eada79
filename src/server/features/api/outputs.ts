import { z } from 'zod';
import { ZDocumentMeta } from '../../../domain/documents';
import { ENTRY_STATUSES } from '../../../domain/timesheets';

// What each operation answers, as zod schemas: the OpenAPI document's response bodies are made
// from these (z.toJSONSchema), and the conformance test validates real answers against them. Each
// names the fields a caller relies on; an answer may carry more (loose objects), so a field added
// to a screen's query is not a breaking change of the API.

const id = z.uuid();
const instant = z.iso.datetime({ offset: true });
const day = z.iso.date();
const ref = z.looseObject({ id, name: z.string() });
const coded = z.looseObject({ id, name: z.string(), code: z.string() });
const status = z.enum(['SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW', 'COMPLETED']);

const Client = z.looseObject({
  id,
  code: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.enum(['active', 'inactive']),
  email: z.email().nullable(),
  phone: z.string().nullable(),
  tags: z.array(z.string()),
  group: ref.nullable(),
  archivedAt: instant.nullable(),
  createdAt: instant,
});

const Service = z.looseObject({
  id,
  name: z.string(),
  code: z.string(),
  category: z.string().nullable(),
  frequency: z.enum(['one_time', 'monthly', 'quarterly', 'half_yearly', 'yearly']),
  defaultFee: z.string().nullable(),
  billingMode: z.enum(['fixed', 'hourly', 'none']),
  taxCode: z.string(),
});

const Engagement = z.looseObject({
  id,
  service: z.looseObject({ id, name: z.string(), code: z.string() }),
  startDate: day,
  endDate: day.nullable(),
  fee: z.string().nullable(),
  billingMode: z.enum(['fixed', 'hourly', 'none']),
});

const Project = z.looseObject({
  id,
  name: z.string(),
  client: coded,
  service: ref.nullable(),
  periodKey: z.string().nullable(),
  status,
  startDate: day.nullable(),
  dueDate: day.nullable(),
  completedDate: instant.nullable(),
  owner: ref.nullable(),
  archivedAt: instant.nullable(),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
});

const Task = z.looseObject({
  id,
  title: z.string(),
  status,
  priority: z.enum(['low', 'medium', 'high', 'urgent']),
  dueDate: day.nullable(),
  completedDate: instant.nullable(),
  tags: z.array(z.string()),
  forClient: z.boolean(),
  client: ref.nullable(),
  project: ref.nullable(),
  assignees: z.array(ref),
  createdAt: instant,
});

const Contact = z.looseObject({
  id,
  name: z.string(),
  email: z.email(),
  phone: z.string().nullable(),
  status: z.string(),
  lastSignInAt: instant.nullable(),
});

const invoiceStatus = z.enum(['draft', 'issued', 'sent', 'partly_paid', 'paid', 'void']);
const InvoiceRow = z.looseObject({
  id,
  kind: z.enum(['invoice', 'credit_note']),
  status: invoiceStatus,
  number: z.string().nullable(),
  clientId: id,
  issueDate: day.nullable(),
  dueDate: day.nullable(),
  currency: z.string(),
  total: z.number(),
  amountPaid: z.number(),
  balance: z.number(),
});
const Invoice = z.looseObject({
  invoice: InvoiceRow,
  client: coded,
  lines: z.array(
    z.looseObject({
      id,
      description: z.string(),
      quantityMilli: z.number().int(),
      rate: z.number(),
      amount: z.number(),
      taxRateBp: z.number().int(),
      cgst: z.number(),
      sgst: z.number(),
      igst: z.number(),
    }),
  ),
});

const Payment = z.looseObject({
  id,
  kind: z.enum(['receipt', 'refund']),
  receivedOn: day,
  method: z.enum(['bank_transfer', 'card', 'cash', 'cheque', 'other', 'upi']),
  reference: z.string(),
  amount: z.number(),
  tdsAmount: z.number(),
  allocated: z.number(),
  unallocated: z.number(),
  client: coded,
});

const TimeEntry = z.looseObject({
  id,
  memberId: id,
  date: day,
  minutes: z.number().int(),
  clientId: id.nullable(),
  projectId: id.nullable(),
  taskId: id.nullable(),
  serviceId: id.nullable(),
  billable: z.boolean(),
  note: z.string(),
  status: z.enum(ENTRY_STATUSES),
  createdAt: instant,
});

/** Adding a contact: the person, and whether they were invited or (already a portal user) given access. */
const ContactAdded = z.object({
  id,
  email: z.email(),
  outcome: z.enum(['access', 'invite']),
});

/** The upload's answer (the documents feature's recordUpload). */
export const ZUploadAnswer = z.object({
  id,
  name: z.string(),
  version: z.number().int(),
  created: z.boolean().describe('false when the upload became the next version of a file of that name'),
  portal: z.enum(['visible', 'internal', 'hidden']),
  alsoShared: z.array(z.looseObject({ id, name: z.string() })),
});

/**
 * `created`: what a create or update answers when it has no get to read the record back with
 * (operations.ts `read`); one that has answers the get's body.
 */
type TOutputs = { row?: z.ZodType; get?: z.ZodType; created?: z.ZodType };

/** By the operation's tag: the list's row, the get's body, and a write's answer without a get. */
export const OUTPUTS: Record<string, TOutputs> = {
  Clients: { row: Client, get: Client },
  Contacts: { row: Contact, created: ContactAdded },
  Services: { row: Service, get: Service },
  Engagements: { row: Engagement, get: Engagement.extend({ clientId: id }) },
  Projects: { row: Project, get: Project },
  Tasks: { row: Task, get: Task },
  Documents: { row: ZDocumentMeta, get: ZDocumentMeta },
  'Time entries': { get: TimeEntry },
  Invoices: { row: InvoiceRow, get: Invoice },
  Payments: { row: Payment, get: Payment },
};

/** A zod schema as the JSON Schema (2020-12) OpenAPI 3.1 uses, as the API writes it out. */
export function outputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
