import { TRPCError } from '@trpc/server';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { TDb } from '../../db/client';
import { apiIdempotency } from '../../db/schema';
import type { TApiKeyCaller } from './keys';
import { problemOfTrpc, sendProblem, type TProblem } from './problem';

const IDEMPOTENCY_HOURS = 24;

/**
 * A create under an Idempotency-Key: the first request claims the key (a row with status 0), runs,
 * and stores its answer; a repeat gets that answer again, a repeat with another request (another
 * `requestHash`) is refused, and a repeat while the first still runs is told so. An answer of 5xx
 * frees the key for a retry. `onRepeat` runs when the request is not run (an upload drops its bytes).
 */
export async function idempotent(
  db: TDb,
  caller: TApiKeyCaller,
  request: { key: string; requestHash: string },
  reply: FastifyReply,
  run: () => Promise<unknown>,
  onRepeat: () => Promise<void> = async () => {},
) {
  const { key, requestHash } = request;
  if (key.length > 200) {
    await onRepeat();
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'The Idempotency-Key must be at most 200 characters',
    });
  }
  const orgId = caller.identity.member?.orgId ?? '';
  await db
    .delete(apiIdempotency)
    .where(
      and(
        eq(apiIdempotency.apiKeyId, caller.keyId),
        lt(apiIdempotency.createdAt, sql`now() - ${`${IDEMPOTENCY_HOURS} hours`}::interval`),
      ),
    );
  const claimed = await db
    .insert(apiIdempotency)
    .values({ orgId, apiKeyId: caller.keyId, key, requestHash, status: 0, body: null })
    .onConflictDoNothing()
    .returning({ id: apiIdempotency.id });
  const where = and(eq(apiIdempotency.apiKeyId, caller.keyId), eq(apiIdempotency.key, key));
  if (claimed.length === 0) {
    await onRepeat();
    const [earlier] = await db.select().from(apiIdempotency).where(where);
    if (!earlier) throw new TRPCError({ code: 'CONFLICT', message: 'Send the request again' });
    if (earlier.requestHash !== requestHash)
      throw new TRPCError({
        code: 'UNPROCESSABLE_CONTENT',
        message: 'This Idempotency-Key was used with another request',
      });
    if (earlier.status === 0)
      throw new TRPCError({
        code: 'CONFLICT',
        message: 'A request with this Idempotency-Key is still running',
      });
    reply.header('idempotency-replayed', 'true');
    if (earlier.status >= 400) return sendProblem(reply, earlier.body as TProblem);
    return reply.code(earlier.status).send(earlier.body);
  }
  try {
    const created = await run();
    const body = JSON.parse(JSON.stringify(created ?? null));
    await db.update(apiIdempotency).set({ status: 201, body }).where(where);
    return reply.code(201).send(body);
  } catch (error) {
    const answer = error instanceof TRPCError ? problemOfTrpc(error) : null;
    if (answer && answer.status < 500)
      await db.update(apiIdempotency).set({ status: answer.status, body: answer }).where(where);
    else await db.delete(apiIdempotency).where(where);
    throw error;
  }
}
