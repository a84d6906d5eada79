import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';

// The OpenAPI document is checked, then every operation it documents is called as it says, and
// each answer must be one of the statuses it documents, with the content type and schema it gives.

type TDoc = {
  openapi: string;
  paths: Record<string, Record<string, TOp>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, TResponse> };
};
type TResponse = { description: string; content?: Record<string, { schema: unknown }>; $ref?: string };
type TOp = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean; schema: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, TResponse>;
};

let t: TTestApp;
let doc: TDoc;
let secret: string;
let clientId: string;
let documentId: string;
// Formats are checked (uuid, date, date-time, email, uri…): an answer's "2024-13-01" is a defect.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await createTestApp();
  const firm = await t.seedFirm('Documented & Co');
  secret = (
    await t.client(firm.owner.token).apiKeys.create.mutate({ name: 'Doc test', roleId: firm.roles.owner.id })
  ).secret;
  clientId = (await seedClient(t, firm.org.id, { name: 'Documented client' })).id;
  // A stored file, so the documents' get and download answer real bodies.
  const root = await t.client(firm.owner.token).documents.open.mutate({ clientId });
  const form = new FormData();
  form.append('file', new Blob(['documented bytes']), 'notes.txt');
  const uploaded = await fetch(`${t.url}/api/v1/documents?folderId=${root.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: form,
  });
  documentId = ((await uploaded.json()) as { id: string }).id;
  doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as TDoc;
  ajv.addSchema({ $id: 'doc', components: doc.components } as object);
}, 240_000);
afterAll(() => t?.close());

const resolve = (response: TResponse): TResponse =>
  response.$ref ? (doc.components.responses[response.$ref.split('/').pop() ?? ''] as TResponse) : response;

/** A schema of the document, with its #/components refs pointing into the registered copy. */
const validatorFor = (schema: unknown) =>
  ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));

const today = new Date().toISOString().slice(0, 10);
/** Ids the writes made, by resource. */
const made: Record<string, string> = {};

/**
 * A valid body for each documented write, in an order where each one's references exist: creates
 * answer 201 and updates 200 with the record, both checked against the document's schema.
 */
const WRITES: Array<{ operationId: string; id?: () => string; body: () => object; saves?: string }> = [
  {
    operationId: 'createClient',
    body: () => ({ code: 'OA-1', name: 'Asha Rao', email: 'office@asha.example' }),
    saves: 'client',
  },
  {
    operationId: 'updateClient',
    id: () => made.client as string,
    body: () => ({ code: 'OA-1', name: 'Asha R. Rao' }),
  },
  {
    operationId: 'createService',
    body: () => ({ name: 'GST returns', code: 'GST-M', frequency: 'monthly', defaultFee: '1500' }),
    saves: 'service',
  },
  {
    operationId: 'updateService',
    id: () => made.service as string,
    body: () => ({ name: 'GST returns', code: 'GST-M', frequency: 'monthly', defaultFee: '1750.50' }),
  },
  {
    operationId: 'createClientEngagement',
    id: () => made.client as string,
    body: () => ({ serviceId: made.service, startDate: today, fee: '1500' }),
    saves: 'engagement',
  },
  {
    operationId: 'updateEngagement',
    id: () => made.engagement as string,
    body: () => ({ startDate: today, fee: '1600', notes: 'From the API' }),
  },
  {
    operationId: 'createProject',
    body: () => ({ name: 'Audit FY25', clientId: made.client, dueDate: today }),
    saves: 'project',
  },
  { operationId: 'updateProject', id: () => made.project as string, body: () => ({ name: 'Audit FY 2025' }) },
  {
    operationId: 'createTask',
    body: () => ({ title: 'Collect bank statements', projectId: made.project, dueDate: today }),
    saves: 'task',
  },
  {
    operationId: 'updateTask',
    id: () => made.task as string,
    body: () => ({ title: 'Collect the bank statements', priority: 'high' }),
  },
  {
    operationId: 'createTimeEntry',
    body: () => ({ date: today, minutes: 90, clientId: made.client, note: 'Reconciliation' }),
    saves: 'entry',
  },
  {
    operationId: 'updateTimeEntry',
    id: () => made.entry as string,
    body: () => ({ date: today, minutes: 120, clientId: made.client, note: 'Reconciliation' }),
  },
  {
    operationId: 'createInvoice',
    body: () => ({ clientId: made.client, notes: 'By the API' }),
    saves: 'invoice',
  },
  {
    operationId: 'updateInvoice',
    id: () => made.invoice as string,
    body: () => ({ lines: [], dueDate: today, notes: 'Changed by the API' }),
  },
  {
    operationId: 'createPayment',
    body: () => ({
      clientId: made.client,
      receivedOn: today,
      method: 'upi',
      reference: 'UTR-1',
      amount: 1000,
    }),
    saves: 'payment',
  },
  {
    operationId: 'updatePayment',
    id: () => made.payment as string,
    body: () => ({ reference: 'UTR-2', notes: '', tdsSection: '', tdsCertificateReceived: false }),
  },
  {
    operationId: 'createClientContact',
    id: () => made.client as string,
    body: () => ({ email: 'asha@example.com', name: 'Asha Rao', phone: '' }),
  },
];

function operations() {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with unique operation ids and JSON Schemas that compile', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(20);
    for (const { op } of operations()) {
      for (const parameter of op.parameters ?? []) expect(() => validatorFor(parameter.schema)).not.toThrow();
      const body = op.requestBody?.content['application/json']?.schema;
      if (body) expect(() => validatorFor(body), op.operationId).not.toThrow();
      for (const response of Object.values(op.responses)) expect(resolve(response)?.description).toBeTruthy();
      // Each documents its success body (a schema with fields, made from the outputs' zod schemas)
      // and its problems.
      const [status, success] = Object.entries(op.responses).find(([code]) => code.startsWith('2')) ?? [];
      expect(success, op.operationId).toBeDefined();
      const [type, media] = Object.entries(resolve(success as TResponse).content ?? {})[0] ?? [];
      expect(media?.schema, op.operationId).toBeDefined();
      if (type === 'application/json') {
        const schema = media?.schema as { properties?: Record<string, { items?: { properties?: object } }> };
        expect(Object.keys(schema.properties ?? {}).length, `${op.operationId} ${status}`).toBeGreaterThan(0);
        if (op.operationId.startsWith('list'))
          expect(schema.properties?.data?.items?.properties, op.operationId).toBeDefined();
      }
      for (const code of ['400', '401', '429'])
        expect(op.responses[code]?.$ref, `${op.operationId} ${code}`).toBe('#/components/responses/Problem');
    }
  });

  it('has a readable reference page listing every operation', async () => {
    const page = await fetch(`${t.url}/api/v1/docs`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    for (const { op } of operations()) expect(html).toContain(`id="${op.operationId}"`);
  });
});

describe('every documented route answers as documented', () => {
  it('writes answer the record as documented, as its get answers it', async () => {
    const byId = new Map(operations().map((entry) => [entry.op.operationId, entry]));
    const documentedWrites = operations().filter(({ method }) => method !== 'GET');
    for (const { op } of documentedWrites)
      if (!op.operationId.startsWith('uploadDocument'))
        expect(
          WRITES.map((w) => w.operationId),
          `an example write for ${op.operationId}`,
        ).toContain(op.operationId);
    for (const write of WRITES) {
      const entry = byId.get(write.operationId);
      if (!entry) throw new Error(`${write.operationId} is not documented`);
      const { path, method, op } = entry;
      const answer = await fetch(`${t.url}/api/v1${path.replace('{id}', write.id?.() ?? '')}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(write.body()),
      });
      const status = method === 'POST' ? 201 : 200;
      const body = (await answer.json()) as { id?: string; invoice?: { id: string } };
      // An invoice answers its row under `invoice`, with its lines beside it.
      const bodyId = body.id ?? body.invoice?.id ?? '';
      expect(answer.status, `${write.operationId}: ${JSON.stringify(body)}`).toBe(status);
      const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
      const validate = validatorFor(schema);
      expect(validate(body), `${write.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (write.saves) made[write.saves] = bodyId;
      // What a write answers is what its get answers now (where the resource has a get).
      const base = path.startsWith('/clients/{id}/')
        ? path.slice('/clients/{id}'.length)
        : path.replace('/{id}', '');
      const getPath = `${base}/${bodyId}`;
      const get = [...byId.values()].find(
        (other) =>
          other.method === 'GET' &&
          other.op.operationId.startsWith('get') &&
          other.path === getPath.replace(bodyId, '{id}'),
      );
      if (get) {
        const again = await fetch(`${t.url}/api/v1${getPath}`, {
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(await again.json(), write.operationId).toEqual(body);
      } else expect(write.operationId).toBe('createClientContact');
    }
  });

  it('with a key, and refuses without one', async () => {
    const checked: string[] = [];
    for (const { path, method, op } of operations()) {
      // Gets answer about a real client and file, a client's lists about the client; every other
      // {id} names nothing (a documented 404).
      const real: Record<string, string> = {
        getClient: clientId,
        listClientContacts: clientId,
        listClientEngagements: clientId,
        getDocument: documentId,
        downloadDocument: documentId,
      };
      const write = WRITES.find(
        (w) => w.operationId === op.operationId && !op.operationId.startsWith('create'),
      );
      const id = real[op.operationId] ?? write?.id?.() ?? randomUUID();
      const url = `${t.url}/api/v1${path.replace('{id}', id)}`;
      const hasBody = Boolean(op.requestBody);
      const init = (auth: boolean): RequestInit => ({
        method,
        headers: {
          ...(auth ? { authorization: `Bearer ${secret}` } : {}),
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(hasBody ? { body: write ? JSON.stringify(write.body()) : '{}' } : {}),
      });
      for (const auth of [false, true]) {
        const answer = await fetch(url, init(auth));
        const documented = op.responses[String(answer.status)];
        expect(documented, `${method} ${path} answered ${answer.status}`).toBeDefined();
        if (!auth) expect(answer.status).toBe(401);
        const response = resolve(documented as TResponse);
        const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
        if (!type || !media) {
          await answer.body?.cancel();
          continue;
        }
        if (type === '*/*') {
          // The bytes: their own type and length, as an attachment.
          expect(answer.headers.get('content-length'), `${method} ${path}`).toBeTruthy();
          expect(answer.headers.get('content-disposition'), `${method} ${path}`).toContain('attachment');
          // Read to the end: an unread stream holds its connection, and the app's close waits on it.
          expect((await answer.arrayBuffer()).byteLength, `${method} ${path}`).toBeGreaterThan(0);
          checked.push(`${method} ${path} ${answer.status}`);
          continue;
        }
        expect(answer.headers.get('content-type'), `${method} ${path}`).toContain(type);
        const validate = validatorFor(media.schema);
        const body = await answer.json();
        expect(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked.push(`${method} ${path} ${answer.status}`);
      }
    }
    // Lists answer pages, the real client is found, an unknown id is a 404, an empty create a 400.
    expect(checked).toContain('GET /clients 200');
    expect(checked).toContain('GET /clients/{id} 200');
    expect(checked).toContain('GET /invoices/{id} 404');
    expect(checked).toContain('POST /clients 400');
    expect(checked).toContain('GET /documents 200');
    expect(checked).toContain('GET /documents/{id} 200');
    expect(checked).toContain('GET /documents/{id}/content 200');
    expect(checked).toContain('GET /clients/{id}/contacts 200');
    expect(checked).toContain('POST /documents 400');
    expect(checked).toContain('PUT /clients/{id} 200');
    expect(checked).toContain('PATCH /payments/{id} 200');
  });
});
