import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';

// Errors a form can put on its fields: the error formatter answers them as `data.fieldErrors`,
// { 'dueDateRule.dayOfMonth': ['…'] }, keyed by the input's path as the form names its fields
// (src/web/ui/record-dialog.tsx reads them). The message still says it all for the toast.

/** A refusal that belongs to one field of what was sent (a code or a name already taken). */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'FieldError';
  }
}

/** CONFLICT on one field: `throw fieldConflict('code', 'Another service already uses the code GST')`. */
export function fieldConflict(field: string, message: string): TRPCError {
  return new TRPCError({ code: 'CONFLICT', message, cause: new FieldError(field, message) });
}

/** BAD_REQUEST on one field: what was sent is not acceptable here (a filing the firm's catalogue lacks). */
export function fieldInvalid(field: string, message: string): TRPCError {
  return new TRPCError({ code: 'BAD_REQUEST', message, cause: new FieldError(field, message) });
}

/** Each field's messages, by its dotted path; issues about the whole input have no field. */
export function fieldErrorsOf(cause: unknown): Record<string, string[]> | undefined {
  if (cause instanceof FieldError) return { [cause.field]: [cause.message] };
  if (!(cause instanceof ZodError)) return undefined;
  const out: Record<string, string[]> = {};
  for (const issue of cause.issues) {
    if (!issue.path.length) continue;
    const key = issue.path.join('.');
    out[key] = [...(out[key] ?? []), issue.message];
  }
  return out;
}
