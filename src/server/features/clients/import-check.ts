import { and, eq, sql } from 'drizzle-orm';
import type { TRowMessage } from '../../../domain/client-import';
import { clientCodeSequence, type TClientInput } from '../../../domain/clients';
import type { TRegistrations } from '../../../domain/statutory/registrations';
import type { TExecutor } from '../../db/client';
import { clients } from '../../db/schema';
import { rowsOf } from '../../db/sql';

// What a row is checked against besides its own cells: the firm's clients (duplicates by email or
// tax identifier, codes already taken) and the codes generated for rows without one.

export type TStagedClient = TClientInput & { generatedCode?: boolean; registrations?: TRegistrations | null };

type TExisting = { code: string; name: string };

/**
 * Existing clients of the firm sharing an email or a tax identifier with the given keys; with
 * `since`, only those added or changed since then (the rest were checked by the preview).
 */
export async function existingByKeys(db: TExecutor, orgId: string, keys: string[], since?: Date) {
  const recent = since ? sql`and ${clients.updatedAt} >= ${since.toISOString()}::timestamptz` : sql``;
  const found = new Map<string, TExisting>();
  const emails = keys.filter((k) => k.startsWith('email:')).map((k) => k.slice(6));
  const taxes = keys.filter((k) => k.startsWith('tax:')).map((k) => k.slice(4));
  if (emails.length) {
    const rows = await db
      .select({ email: clients.email, code: clients.code, name: clients.name })
      .from(clients)
      // Emails are stored lower-cased (the schema does it), so the (org, email) index serves this.
      .where(and(eq(clients.orgId, orgId), sql`${clients.email} = any(${pgArray(emails)}::text[])`));
    for (const r of rows) if (r.email) found.set(`email:${r.email.toLowerCase()}`, r);
  }
  if (taxes.length) {
    const rows = await db.execute(
      // The firm's identifiers are listed once (materialised), then matched by a hashed ANY: left
      // to itself the planner may loop over the wanted keys and rescan the firm's for each one.
      sql`with ids as materialized (
            select upper(t->>'kind') || ':' || upper(regexp_replace(t->>'value', '\\s+', '', 'g')) as key,
              ${clients.code} as code, ${clients.name} as name
            from ${clients} cross join lateral jsonb_array_elements(${clients.taxIds}) t
            where ${clients.orgId} = ${orgId} ${recent}
            -- PAN, TAN and GSTIN live in the registrations.
            union all
            select k.key, ${clients.code}, ${clients.name}
            from ${clients} join client_registrations r on r.org_id = ${clients.orgId} and r.client_id = ${clients.id}
            cross join lateral (values ('PAN:' || r.pan), ('TAN:' || r.tan), ('GSTIN:' || r.gstin)) as k(key)
            where ${clients.orgId} = ${orgId} ${recent} and k.key is not null)
          select key, code, name from ids where key = any(${pgArray(taxes)}::text[])`,
    );
    for (const r of rowsOf<{ key: string; code: string; name: string }>(rows))
      found.set(`tax:${r.key}`, { code: r.code, name: r.name });
  }
  return found;
}

/** The firm's codes among these (case-insensitive, as the form's check is). */
export async function takenCodes(db: TExecutor, orgId: string, codes: string[], since?: Date) {
  const recent = since ? sql`and ${clients.updatedAt} >= ${since.toISOString()}::timestamptz` : sql``;
  if (!codes.length) return new Map<string, TExisting>();
  const rows = await db.execute(
    sql`select ${clients.code} as code, ${clients.name} as name
        from ${clients}
        where ${clients.orgId} = ${orgId} ${recent} and lower(${clients.code}) = any(${pgArray(codes)}::text[])`,
  );
  return new Map(rowsOf<TExisting>(rows).map((r) => [r.code.toLowerCase(), r]));
}

/** An array as one text parameter in PostgreSQL's literal syntax: both drivers pass it as it is. */
export const pgArray = (values: string[]) =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** The firm's highest code of the generated shape (C and digits), the widest of equals; null if none. */
export async function highestGeneratedCode(db: TExecutor, orgId: string): Promise<string | null> {
  const [row] = rowsOf<{ code: string }>(
    await db.execute(
      sql`select ${clients.code} as code from ${clients}
          where ${clients.orgId} = ${orgId} and ${clients.code} ~ '^[Cc][0-9]{1,12}$'
          order by substring(${clients.code} from 2)::bigint desc, length(${clients.code}) desc
          limit 1`,
    ),
  );
  return row?.code ?? null;
}

/** Codes for the rows without one: past the firm's and the file's highest (clientCodeSequence). */
export async function codeGenerator(db: TExecutor, orgId: string, fileCodes: string[]) {
  return clientCodeSequence([await highestGeneratedCode(db, orgId), ...fileCodes]);
}

export const duplicateMessage = (label: string, other: string): TRowMessage => ({
  field: label === 'email' ? 'email' : 'taxIds',
  message: `Same ${label} as ${other}`,
});
