import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { inputErrorOf } from '../db/errors';
import type { TContext } from './context';
import { fieldErrorsOf } from './field-errors';
import { transformer } from './transformer';

/**
 * The toast's text for a refused input: each distinct message once, as the schema wrote it for a
 * person. Field paths ("minutes", "bodyHtml") are the program's names and stay in `fieldErrors`,
 * where a form puts each message beside its own field.
 */
export function zodMessage(error: ZodError): string {
  const messages = [...new Set(error.issues.map((issue) => issue.message.trim()))];
  if (messages.length === 1) return messages[0] ?? '';
  return messages.map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' ');
}

export const t = initTRPC.context<TContext>().create({
  // superjson on the wire; responses take a faster path to the same output (transformer.ts).
  transformer,
  // Stack traces never leave the server, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause : null;
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    const fieldErrors = internal ? undefined : fieldErrorsOf(error.cause);
    return {
      ...shape,
      message: zod
        ? zodMessage(zod)
        : internal
          ? 'Something went wrong on our side. Please try again.'
          : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        ...(fieldErrors ? { fieldErrors } : {}),
      },
    };
  },
});

export { TRPCError };
export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every procedure starts here. The last resort for input the schemas let through: a database data
 * exception (SQLSTATE class 22) answers BAD_REQUEST "Some of the values sent are not valid", logged
 * with the procedure, never a 500.
 */
export const baseProcedure = t.procedure.use(async ({ ctx, path, next }) => {
  const result = await next();
  if (result.ok) return result;
  const input = inputErrorOf(result.error);
  if (!input) return result;
  ctx.req?.log?.warn(
    { err: result.error.cause ?? result.error, procedure: path },
    'input the database refused',
  );
  throw input;
});
