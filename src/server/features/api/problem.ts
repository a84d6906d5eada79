import type { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { fieldErrorsOf } from '../../trpc/field-errors';
import { zodMessage } from '../../trpc/init';

// Errors as RFC 9457 problem details: `type` names the kind of problem (a page of the reference),
// `title` says it in words, `status` repeats the HTTP status, `detail` is the message a person can
// act on (the app's own), and `errors` puts each message by its field, as the app's forms get them.

export const PROBLEM_TYPE_BASE = '/api/v1/docs#problem-';

export type TProblem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: Record<string, string[]>;
};

const TITLES: Record<string, string> = {
  BAD_REQUEST: 'The request is not valid',
  UNAUTHORIZED: 'An API key is needed',
  FORBIDDEN: 'The key may not do this',
  NOT_FOUND: 'Not found',
  METHOD_NOT_SUPPORTED: 'Method not allowed',
  CONFLICT: 'Conflict',
  PRECONDITION_FAILED: 'Precondition failed',
  PAYLOAD_TOO_LARGE: 'The request is too large',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not of a type this accepts',
  UNPROCESSABLE_CONTENT: 'The request cannot be processed',
  TOO_MANY_REQUESTS: 'Too many requests',
  INTERNAL_SERVER_ERROR: 'Something went wrong on our side',
};

export function problem(
  code: string,
  status: number,
  detail: string,
  errors?: Record<string, string[]>,
): TProblem {
  return {
    type: `${PROBLEM_TYPE_BASE}${code.toLowerCase().replace(/_/g, '-')}`,
    title: TITLES[code] ?? 'Error',
    status,
    detail,
    code,
    ...(errors && Object.keys(errors).length ? { errors } : {}),
  };
}

/** A procedure's TRPCError as the problem it is. */
export function problemOfTrpc(error: TRPCError): TProblem {
  const status = getHTTPStatusCodeFromError(error);
  if (error.code === 'INTERNAL_SERVER_ERROR')
    return problem(error.code, 500, 'Something went wrong on our side. Please try again.');
  const zod = error.cause instanceof ZodError ? error.cause : null;
  return problem(error.code, status, zod ? zodMessage(zod) : error.message, fieldErrorsOf(error.cause));
}

export function sendProblem(reply: FastifyReply, body: TProblem) {
  return reply
    .code(body.status)
    .header('cache-control', 'no-store')
    .type('application/problem+json')
    .send(JSON.stringify(body));
}
