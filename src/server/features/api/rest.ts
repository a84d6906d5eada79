import { createHash, randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_PAGE_SIZE } from '../../../domain/constants';
import { requestMeta } from '../../auth';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../db/client';
import type { TStorage } from '../../files/storage';
import type { TMailer } from '../../mail';
import type { TContext } from '../../trpc/context';
import { createCallerFactory } from '../../trpc/init';
import type { AppRouter } from '../../trpc/router';
import { audit } from '../system-log';
import { registerDocumentApi } from './documents-http';
import { idempotent } from './idempotency';
import { resolveApiKey, type TApiKeyCaller } from './keys';
import { openApiDocument, referencePage } from './openapi';
import { fastifyPath, OPERATIONS, type TOperation } from './operations';
import { problem, problemOfTrpc, sendProblem } from './problem';
import { bindRouter, coerceQuery, inputJsonSchema } from './schemas';

// The public REST API under /api/v1: a key (Authorization: Bearer pk_live_…) and one tRPC
// procedure per operation, called with a context the key stands for. The procedures' rules,
// permissions, tenancy and zod schemas are the app's; this file only maps HTTP to them.

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller?: TApiKeyCaller;
  }
  interface FastifyContextConfig {
    /** A route of the public API that needs no key (the OpenAPI document, the reference page). */
    apiPublic?: boolean;
  }
}

/** `router`: the root router, handed in (it imports this feature for the keys' procedures). */
type TDeps = { database: TDatabase; config: TConfig; mailer: TMailer; storage: TStorage; router: AppRouter };
let makeCaller: ((ctx: TContext) => unknown) | undefined;

/** The opaque cursor a list hands out: the procedure's own keyset cursor, or the next page. */
type TCursor = { c: string } | { p: number };
const encodeCursor = (cursor: TCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
function decodeCursor(text: string): TCursor | null {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof value.c === 'string') return { c: value.c };
    if (typeof value.p === 'number' && Number.isInteger(value.p) && value.p >= 1 && value.p <= 1_000_000)
      return { p: value.p };
  } catch {}
  return null;
}

export async function registerPublicApi(app: FastifyInstance, deps: TDeps) {
  bindRouter(deps.router);
  makeCaller = createCallerFactory(deps.router);
  await app.register(
    async (api) => {
      api.setErrorHandler((error, req, reply) => {
        if (error instanceof TRPCError) {
          if (error.code === 'INTERNAL_SERVER_ERROR')
            req.log.error({ err: error.cause ?? error }, 'API call failed');
          return sendProblem(reply, problemOfTrpc(error));
        }
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 429)
          return sendProblem(reply, problem('TOO_MANY_REQUESTS', 429, (error as Error).message));
        if (status && status >= 400 && status < 500) {
          const message =
            (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Send the body as application/json'
              : status === 413
                ? 'The body is too large'
                : 'The body is not valid JSON';
          return sendProblem(
            reply,
            problem(status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', status, message),
          );
        }
        req.log.error({ err: error }, 'API call failed');
        return sendProblem(
          reply,
          problem('INTERNAL_SERVER_ERROR', 500, 'Something went wrong on our side. Please try again.'),
        );
      });

      // The key, before anything else is read.
      api.addHook('onRequest', async (req, reply) => {
        if (req.routeOptions.config.apiPublic) return;
        const header = req.headers.authorization ?? '';
        const secret = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
        const caller = secret ? await resolveApiKey(deps.database.db, secret) : null;
        if (!caller) {
          reply.header('www-authenticate', 'Bearer realm="api"');
          return sendProblem(
            reply,
            problem('UNAUTHORIZED', 401, 'Send a live API key as "Authorization: Bearer <key>"'),
          );
        }
        req.apiCaller = caller;
        req.apiKeyId = caller.keyId;
      });

      // Every call made with a key is in the firm's log, naming the key (and the member who made it).
      api.addHook('onResponse', async (req, reply) => {
        const caller = req.apiCaller;
        if (!caller?.identity.member) return;
        const { orgId, memberId } = caller.identity.member;
        const path = req.url.split('?')[0] ?? '';
        await audit(
          deps.database.db,
          { kind: 'member', orgId, memberId, meta: requestMeta(req) },
          {
            action: 'api.call',
            recordType: 'api_key',
            recordId: caller.keyId,
            summary: `${req.method} ${path} answered ${reply.statusCode} (API key ${caller.keyName})`,
          },
        ).catch((error) => req.log.warn({ err: error }, 'the API call was not logged'));
      });

      api.get('/openapi.json', { config: { apiPublic: true } }, async (_req, reply) =>
        reply.header('cache-control', 'no-cache').send(openApiDocument()),
      );
      api.get('/docs', { config: { apiPublic: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(referencePage()),
      );

      // Documents' upload and download stream their bytes: routes of their own, the app's service.
      await registerDocumentApi(api, deps);

      for (const op of OPERATIONS) {
        api.route({
          method: op.method,
          url: fastifyPath(op.path),
          handler: (req, reply) => handle(deps, op, req, reply),
        });
      }

      api.all('/*', { config: { apiPublic: true } }, async (req, reply) =>
        sendProblem(
          reply,
          problem('NOT_FOUND', 404, `There is no ${req.method} ${req.url.split('?')[0]} in this API`),
        ),
      );
    },
    { prefix: API_PREFIX },
  );
}

function contextFor(deps: TDeps, req: FastifyRequest, reply: FastifyReply, caller: TApiKeyCaller): TContext {
  return {
    db: deps.database.db,
    config: deps.config,
    mailer: deps.mailer,
    storage: deps.storage,
    req,
    res: reply,
    meta: requestMeta(req),
    staffIdentity: async () => caller.identity,
    portalSession: async () => null,
  };
}

async function callProcedure(ctx: TContext, procedure: string, input: unknown): Promise<unknown> {
  if (!makeCaller) throw new Error('registerPublicApi was not called');
  let target: unknown = makeCaller(ctx);
  for (const part of procedure.split('.')) target = (target as Record<string, unknown>)[part];
  return (target as (input: unknown) => Promise<unknown>)(input);
}

const pathId = (req: FastifyRequest) => (req.params as { id?: string }).id;

async function handle(deps: TDeps, op: TOperation, req: FastifyRequest, reply: FastifyReply) {
  const caller = req.apiCaller;
  if (!caller) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Send a live API key' });
  const ctx = contextFor(deps, req, reply, caller);
  const id = pathId(req);
  const idPart = op.idField && id !== undefined ? { [op.idField]: id } : {};

  if (op.kind === 'list') return list(ctx, op, req, idPart);
  if (op.kind === 'get') return callProcedure(ctx, op.procedure, idPart);

  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    return sendProblem(reply, problem('BAD_REQUEST', 400, 'Send a JSON object as the body'));
  }
  // A write answers the record as its GET does; a key that may write but not read is refused
  // before it writes, so the answer never has to be less than documented.
  const input =
    op.kind === 'update' && op.bodyField ? { ...idPart, [op.bodyField]: body } : { ...body, ...idPart };
  if (op.read) await assertMayRead(ctx, op.read);
  const write = async () => readBack(ctx, op, await callProcedure(ctx, op.procedure, input));
  if (op.kind === 'update') return write();
  // create: replayed when the key sent this Idempotency-Key before
  const idempotencyKey = req.headers['idempotency-key'];
  if (typeof idempotencyKey !== 'string' || idempotencyKey === '') return reply.code(201).send(await write());
  return idempotentCreate(deps, caller, op, idempotencyKey, input, reply, write);
}

/** The written record as the operation's get answers it (or the procedure's answer, without one). */
async function readBack(ctx: TContext, op: TOperation, written: unknown) {
  if (!op.read) return written;
  const { id } = written as { id: string };
  return callProcedure(ctx, op.read.procedure, { [op.read.idField]: id });
}

/** The get's permission check, on an id that names nothing: NOT_FOUND means the key may read. */
async function assertMayRead(ctx: TContext, read: NonNullable<TOperation['read']>) {
  try {
    await callProcedure(ctx, read.procedure, { [read.idField]: randomUUID() });
  } catch (error) {
    if (error instanceof TRPCError && error.code === 'FORBIDDEN') throw error;
  }
}

async function list(ctx: TContext, op: TOperation, req: FastifyRequest, idPart: Record<string, string>) {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const filters = coerceQuery(op, query);
  const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
  const cursor = typeof query.cursor === 'string' && query.cursor ? decodeCursor(query.cursor) : undefined;
  if (cursor === null)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The cursor is not one this API gave' });
  const keyset = 'cursor' in (inputJsonSchema(op.procedure).properties ?? {}) && !filters.search;
  const paging =
    cursor && 'c' in cursor
      ? { cursor: cursor.c, page: 1 }
      : { page: cursor && 'p' in cursor ? cursor.p : 1 };
  if ('cursor' in paging && !keyset)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The cursor is not one this API gave' });
  const result = (await callProcedure(ctx, op.procedure, {
    ...filters,
    ...idPart,
    ...paging,
    pageSize: Number.isFinite(limit) ? limit : query.limit,
  })) as
    | {
        rows?: unknown[];
        total?: number;
        page?: number;
        pageSize?: number;
        nextCursor?: string | null;
        totalCapped?: boolean;
      }
    | unknown[];
  if (Array.isArray(result)) return { data: result, nextCursor: null };
  const rows = result.rows ?? [];
  const page = result.page ?? 1;
  const pageSize = result.pageSize ?? limit;
  let next: TCursor | null = null;
  if (keyset && result.nextCursor) next = { c: result.nextCursor };
  else if (!keyset && typeof result.total === 'number' && page * pageSize < result.total)
    next = { p: page + 1 };
  return {
    data: rows,
    nextCursor: next ? encodeCursor(next) : null,
    ...(typeof result.total === 'number'
      ? { total: result.total, totalCapped: result.totalCapped === true }
      : {}),
  };
}

/** A create under an Idempotency-Key: the procedure's call, claimed and replayed by idempotent(). */
async function idempotentCreate(
  deps: TDeps,
  caller: TApiKeyCaller,
  op: TOperation,
  key: string,
  input: unknown,
  reply: FastifyReply,
  write: () => Promise<unknown>,
) {
  const requestHash = createHash('sha256')
    .update(`${op.operationId}\n${JSON.stringify(input)}`)
    .digest('hex');
  return idempotent(deps.database.db, caller, { key, requestHash }, reply, write);
}
