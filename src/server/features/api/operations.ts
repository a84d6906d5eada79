// The public API's operations (issue 40): each one is a tRPC procedure of the web app, called with
// a key's context, so every rule, permission and schema is the app's own (STYLE.md §12). The
// OpenAPI document (openapi.ts) is generated from this table and the procedures' zod inputs.

export type TOperationKind = 'list' | 'get' | 'create' | 'update';

export type TOperation = {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** OpenAPI form, under /api/v1: `/clients/{id}`. */
  path: string;
  /** The tRPC procedure's dotted path. */
  procedure: string;
  kind: TOperationKind;
  /** The input field the path's `{id}` fills. */
  idField?: string;
  /** An update whose input nests the changes under this field (`{ clientId, data }`). */
  bodyField?: string;
  /**
   * A create's or update's read-back: the get procedure and its id field, called with the written
   * record's id so the answer is the record as `GET …/{id}` answers it, not only its id.
   */
  read?: { procedure: string; idField: string };
  tag: string;
  summary: string;
};

type TResource = {
  tag: string;
  /** Path segment and a singular for the summaries. */
  base: string;
  one: string;
  idField: string;
  list?: string;
  get?: string;
  create?: string;
  update?: { procedure: string; method: 'PUT' | 'PATCH'; bodyField?: string };
};

const RESOURCES: TResource[] = [
  {
    tag: 'Clients',
    base: '/clients',
    one: 'client',
    idField: 'clientId',
    list: 'clients.list',
    get: 'clients.get',
    create: 'clients.create',
    update: { procedure: 'clients.update', method: 'PUT', bodyField: 'data' },
  },
  {
    tag: 'Services',
    base: '/services',
    one: 'service',
    idField: 'serviceId',
    list: 'services.list',
    get: 'services.get',
    create: 'services.create',
    update: { procedure: 'services.update', method: 'PUT' },
  },
  {
    tag: 'Engagements',
    base: '/engagements',
    one: 'engagement',
    idField: 'engagementId',
    get: 'engagements.get',
    update: { procedure: 'engagements.update', method: 'PUT' },
  },
  {
    tag: 'Projects',
    base: '/projects',
    one: 'project',
    idField: 'projectId',
    list: 'projects.list',
    get: 'projects.get',
    create: 'projects.create',
    update: { procedure: 'projects.update', method: 'PUT' },
  },
  {
    tag: 'Tasks',
    base: '/tasks',
    one: 'task',
    idField: 'taskId',
    list: 'tasks.list',
    get: 'tasks.get',
    create: 'tasks.create',
    update: { procedure: 'tasks.update', method: 'PATCH', bodyField: 'patch' },
  },
  {
    tag: 'Documents',
    base: '/documents',
    one: 'document',
    idField: 'documentId',
    list: 'documents.list',
    get: 'documents.get',
  },
  {
    tag: 'Time entries',
    base: '/time-entries',
    one: 'time entry',
    idField: 'entryId',
    get: 'timesheets.get',
    create: 'timesheets.create',
    update: { procedure: 'timesheets.update', method: 'PUT' },
  },
  {
    tag: 'Invoices',
    base: '/invoices',
    one: 'invoice',
    idField: 'invoiceId',
    list: 'billing.invoices.list',
    get: 'billing.invoices.get',
    create: 'billing.invoices.create',
    update: { procedure: 'billing.invoices.update', method: 'PUT' },
  },
  {
    tag: 'Payments',
    base: '/payments',
    one: 'payment',
    idField: 'paymentId',
    list: 'billing.payments.list',
    get: 'billing.payments.get',
    create: 'billing.payments.record',
    update: { procedure: 'billing.payments.update', method: 'PATCH' },
  },
];

const camel = (words: string) => words.replace(/ (\w)/g, (_m, c: string) => c.toUpperCase());
const plural = (one: string) => (one.endsWith('y') ? `${one.slice(0, -1)}ies` : `${one}s`);

function resourceOperations(r: TResource): TOperation[] {
  const ops: TOperation[] = [];
  const read = r.get ? { read: { procedure: r.get, idField: r.idField } } : {};
  const Name = camel(r.one).replace(/^\w/, (c) => c.toUpperCase());
  if (r.list)
    ops.push({
      operationId: `list${camel(plural(r.one)).replace(/^\w/, (c) => c.toUpperCase())}`,
      method: 'GET',
      path: r.base,
      procedure: r.list,
      kind: 'list',
      tag: r.tag,
      summary: `List ${plural(r.one)}`,
    });
  if (r.get)
    ops.push({
      operationId: `get${Name}`,
      method: 'GET',
      path: `${r.base}/{id}`,
      procedure: r.get,
      kind: 'get',
      idField: r.idField,
      tag: r.tag,
      summary: `Get a ${r.one}`,
    });
  if (r.create)
    ops.push({
      operationId: `create${Name}`,
      method: 'POST',
      path: r.base,
      procedure: r.create,
      kind: 'create',
      ...read,
      tag: r.tag,
      summary: `Create a ${r.one}`,
    });
  if (r.update)
    ops.push({
      operationId: `update${Name}`,
      method: r.update.method,
      path: `${r.base}/{id}`,
      procedure: r.update.procedure,
      kind: 'update',
      idField: r.idField,
      ...(r.update.bodyField ? { bodyField: r.update.bodyField } : {}),
      ...read,
      tag: r.tag,
      summary: `${r.update.method === 'PUT' ? 'Replace' : 'Change'} a ${r.one}`,
    });
  return ops;
}

/** Operations on a client's own lists: its portal contacts and its engagements. */
const CLIENT_CHILDREN: TOperation[] = [
  {
    operationId: 'listClientContacts',
    method: 'GET',
    path: '/clients/{id}/contacts',
    procedure: 'clientUsers.list',
    kind: 'list',
    idField: 'clientId',
    tag: 'Contacts',
    summary: "List a client's contacts (the people who use the portal for it)",
  },
  {
    operationId: 'createClientContact',
    method: 'POST',
    path: '/clients/{id}/contacts',
    procedure: 'clientUsers.invite',
    kind: 'create',
    idField: 'clientId',
    tag: 'Contacts',
    summary: 'Add a contact to a client and invite them to the portal',
  },
  {
    operationId: 'listClientEngagements',
    method: 'GET',
    path: '/clients/{id}/engagements',
    procedure: 'engagements.listForClient',
    kind: 'list',
    idField: 'clientId',
    tag: 'Engagements',
    summary: "List a client's engagements (the services it takes)",
  },
  {
    operationId: 'createClientEngagement',
    method: 'POST',
    path: '/clients/{id}/engagements',
    procedure: 'engagements.create',
    kind: 'create',
    idField: 'clientId',
    read: { procedure: 'engagements.get', idField: 'engagementId' },
    tag: 'Engagements',
    summary: 'Engage a client for a service',
  },
];

export const OPERATIONS: readonly TOperation[] = [
  ...RESOURCES.flatMap(resourceOperations),
  ...CLIENT_CHILDREN,
];

/** Fastify's form of an OpenAPI path: `/clients/:id`. */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
