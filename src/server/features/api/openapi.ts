import type { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../domain/constants';
import { ZApiRawUploadName, ZApiUploadQuery } from './documents-http';
import { OPERATIONS, type TOperation } from './operations';
import { OUTPUTS, outputJsonSchema, ZUploadAnswer } from './outputs';
import { bodySchema, queryParameters } from './schemas';

// The OpenAPI 3.1 document, generated from the operations table and the procedures' zod inputs
// (schemas.ts), and a plain reference page made from the same document. Built once per process.

const PROBLEM = { $ref: '#/components/responses/Problem' };

function operationObject(op: TOperation) {
  const parameters: unknown[] = [];
  if (op.path.includes('{id}'))
    parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  if (op.kind === 'list') {
    parameters.push(
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 },
        description: 'Rows per page',
      },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'The `nextCursor` of the previous page',
      },
      ...queryParameters(op).map(({ name, schema, required }) => ({
        name,
        in: 'query',
        required,
        schema,
        ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
        ...(schema.type === 'object' ? { description: 'A JSON object' } : {}),
      })),
    );
  }
  if (op.kind === 'create')
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 200 },
      description: 'The same key with the same body within 24 hours answers the first answer again',
    });
  const output = OUTPUTS[op.tag] ?? {};
  const answer = op.kind === 'get' || op.read ? output.get : output.created;
  if (op.kind !== 'list' && !answer)
    throw new Error(`${op.operationId} has no documented answer (outputs.ts)`);
  const success =
    op.kind === 'list'
      ? {
          '200': {
            description: 'A page of rows',
            content: { 'application/json': { schema: pageSchema(output.row) } },
          },
        }
      : {
          [op.kind === 'create' ? '201' : '200']: {
            description:
              op.kind === 'get'
                ? 'OK'
                : `${op.kind === 'create' ? 'Created' : 'Changed'}${op.read ? `: the ${op.tag.toLowerCase().replace(/s$/, '')} as its GET answers it` : ''}`,
            content: { 'application/json': { schema: outputJsonSchema(answer as z.ZodType) } },
          },
        };
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    'x-procedure': op.procedure,
    ...(parameters.length ? { parameters } : {}),
    ...(op.kind === 'create' || op.kind === 'update'
      ? { requestBody: { required: true, content: { 'application/json': { schema: bodySchema(op) } } } }
      : {}),
    responses: {
      ...success,
      '400': PROBLEM,
      '401': PROBLEM,
      '403': PROBLEM,
      // A path's id, or a list's filter, naming what the key cannot reach (or nothing).
      ...(op.path.includes('{id}') || op.kind === 'list' ? { '404': PROBLEM } : {}),
      ...(op.kind === 'create' ? { '409': PROBLEM, '422': PROBLEM } : {}),
      '429': PROBLEM,
    },
  };
}

/** A list's page: the rows as the operation's row schema, and the cursor of the next page. */
function pageSchema(row: Parameters<typeof outputJsonSchema>[0] | undefined) {
  return {
    type: 'object',
    required: ['data', 'nextCursor'],
    properties: {
      data: { type: 'array', items: row ? outputJsonSchema(row) : { type: 'object' } },
      nextCursor: {
        type: ['string', 'null'],
        description: 'Pass as `cursor` for the next page; null on the last',
      },
      total: { type: 'integer' },
      totalCapped: { type: 'boolean' },
    },
  };
}

const documentId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** Documents' bytes: the uploads (multipart or the raw body) and the download, all streamed. */
function documentStreams() {
  const queryOf = (schema: z.ZodType) => {
    const query = outputJsonSchema(schema) as { properties: Record<string, unknown>; required?: string[] };
    return Object.entries(query.properties).map(([name, field]) => ({
      name,
      in: 'query',
      required: query.required?.includes(name) ?? false,
      schema: field,
    }));
  };
  const idempotencyKey = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', maxLength: 200 },
    description:
      'The same key with the same folder, name and bytes within 24 hours answers the first answer again',
  };
  const uploaded = {
    '201': {
      description: 'Stored',
      content: { 'application/json': { schema: outputJsonSchema(ZUploadAnswer) } },
    },
    '400': PROBLEM,
    '401': PROBLEM,
    '403': PROBLEM,
    '404': PROBLEM,
    '409': PROBLEM,
    '413': PROBLEM,
    '422': PROBLEM,
    '429': PROBLEM,
  };
  return {
    '/documents': {
      post: {
        operationId: 'uploadDocument',
        summary:
          'Upload a file into a folder (multipart/form-data, one part named "file"); the same name in the folder becomes its next version',
        tags: ['Documents'],
        parameters: [...queryOf(ZApiUploadQuery), idempotencyKey],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: { type: 'string', format: 'binary', description: 'The file, with its name' },
                },
              },
            },
          },
        },
        responses: uploaded,
      },
      put: {
        operationId: 'uploadDocumentBody',
        summary:
          "Upload a file as the request's body (streamed), Content-Type its type and its name as ?name= or Content-Disposition; the same rules and answer as the multipart upload",
        tags: ['Documents'],
        parameters: [
          ...queryOf(ZApiUploadQuery.extend(ZApiRawUploadName.shape)),
          {
            name: 'Content-Disposition',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description:
              'attachment; filename="return.pdf" (or filename*=UTF-8\'\'…), when ?name= is not given',
          },
          idempotencyKey,
        ],
        requestBody: {
          required: true,
          description:
            "The file's bytes. Content-Type is the file's type (the stored type is read from the bytes); multipart/* and application/x-www-form-urlencoded are refused with 415",
          content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
        },
        responses: { ...uploaded, '415': PROBLEM },
      },
    },
    '/documents/{id}/content': {
      get: {
        operationId: 'downloadDocument',
        summary: "Download a file's bytes (the current version, or ?version=N)",
        tags: ['Documents'],
        parameters: [
          documentId,
          { name: 'version', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        ],
        responses: {
          '200': {
            description:
              'The bytes, with Content-Type (the type read from them), Content-Length, Content-Disposition (attachment; the file name) and an ETag of their SHA-256',
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
          },
          '400': PROBLEM,
          '401': PROBLEM,
          '403': PROBLEM,
          '404': PROBLEM,
          '429': PROBLEM,
        },
      },
    },
  };
}

let built: Record<string, unknown> | undefined;

export function openApiDocument() {
  if (built) return built;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method.toLowerCase()] = operationObject(op);
  }
  for (const [path, methods] of Object.entries(documentStreams()))
    paths[path] = { ...paths[path], ...methods };
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Practice API',
      version: '1.0.0',
      description:
        'The firm\'s data for its other tools. Make a key at Settings → API and send it as "Authorization: Bearer <key>". Errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (pk_live_…)' } },
      schemas: {
        Page: {
          type: 'object',
          required: ['data', 'nextCursor'],
          properties: {
            data: { type: 'array', items: { type: 'object' } },
            nextCursor: {
              type: ['string', 'null'],
              description: 'Pass as `cursor` for the next page; null on the last',
            },
            total: { type: 'integer' },
            totalCapped: { type: 'boolean' },
          },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
      responses: {
        Problem: {
          description: 'A problem (RFC 9457)',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    },
  };
  return built;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

type TSchema = {
  type?: unknown;
  properties?: Record<string, TSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: TSchema[];
  format?: string;
};

function typeText(schema: TSchema): string {
  if (schema.enum) return schema.enum.map(String).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  return schema.format ? `${type} (${schema.format})` : type;
}

function fieldsTable(schema: TSchema) {
  const rows = Object.entries(schema.properties ?? {})
    .map(
      ([name, field]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeText(field))}</td><td>${schema.required?.includes(name) ? 'yes' : ''}</td></tr>`,
    )
    .join('');
  return rows
    ? `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th></tr></thead><tbody>${rows}</tbody></table>`
    : '';
}

/** The reference page: every operation with its parameters and body, no script, no CDN. */
export function referencePage(): string {
  const sections = OPERATIONS.map((op) => {
    const params =
      op.kind === 'list'
        ? `<p>Query: <code>limit</code>, <code>cursor</code>${queryParameters(op)
            .map((p) => `, <code>${escapeHtml(p.name)}</code>`)
            .join('')}</p>`
        : '';
    const body =
      op.kind === 'create' || op.kind === 'update'
        ? `<h4>Body</h4>${fieldsTable(bodySchema(op) as TSchema)}`
        : '';
    return `<section id="${op.operationId}"><h3><span class="m">${op.method}</span> <code>/api/v1${escapeHtml(op.path)}</code></h3><p>${escapeHtml(op.summary)}.</p>${params}${body}</section>`;
  }).join('\n');
  const streams = `<section id="uploadDocument"><h3><span class="m">POST</span> <code>/api/v1/documents?folderId=…</code></h3><p>Upload a file into a folder (or, with <code>clientId=…</code> instead, the client's top folder) as <code>multipart/form-data</code> with one part named <code>file</code>, streamed; the firm's upload limit and rules apply, and the same name in the folder becomes the file's next version. <code>share=true|false</code> shares it in the client's portal or keeps it internal. Takes an <code>Idempotency-Key</code>.</p></section>
<section id="uploadDocumentBody"><h3><span class="m">PUT</span> <code>/api/v1/documents?folderId=…&amp;name=…</code></h3><p>Upload a file as the request's body, streamed, with <code>Content-Type</code> the file's type and its name as <code>?name=</code> or <code>Content-Disposition: attachment; filename="…"</code>. The same rules, limit and answer as the multipart upload; <code>multipart/*</code> and <code>application/x-www-form-urlencoded</code> bodies are refused (415). Takes an <code>Idempotency-Key</code>.</p></section>
<section id="downloadDocument"><h3><span class="m">GET</span> <code>/api/v1/documents/{id}/content</code></h3><p>The file's bytes, streamed, with <code>Content-Type</code>, <code>Content-Length</code> and <code>Content-Disposition</code>; <code>?version=N</code> for an earlier version.</p></section>`;
  const problems = [
    'bad-request',
    'unauthorized',
    'forbidden',
    'not-found',
    'conflict',
    'payload-too-large',
    'unsupported-media-type',
    'unprocessable-content',
    'too-many-requests',
    'internal-server-error',
  ]
    .map((p) => `<li id="problem-${p}"><code>${p}</code></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Practice API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}code{font-family:ui-monospace,monospace}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d1d5db;padding:.25rem .5rem;text-align:left}.m{display:inline-block;min-width:4rem;font-weight:600}section{border-top:1px solid #e5e7eb;padding-top:.5rem}</style></head>
<body><h1>Practice API reference</h1>
<p>Version 1. The machine-readable document is <a href="/api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<h2>Calling the API</h2>
<p>Make a key at Settings → API, then send it on every call: <code>Authorization: Bearer pk_live_…</code>. A key has a role: it reaches what that role reaches, and every call is in the firm's system log under the key's name. Lists answer <code>{ data, nextCursor }</code>: pass <code>nextCursor</code> back as <code>cursor</code> for the next page. Creates take an <code>Idempotency-Key</code> header. Errors are RFC 9457 problem details (<code>application/problem+json</code>).</p>
<h2>Problems</h2><ul>${problems}</ul>
<h2>Operations</h2>
${sections}
${streams}
</body></html>`;
}
