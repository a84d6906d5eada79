import type { AnyRouter } from '@trpc/server';
import { z } from 'zod';
import type { TOperation } from './operations';

// The zod input a procedure declares, and its JSON Schema (zod 4's own z.toJSONSchema): the same
// schema validates the call (the procedure parses it) and describes it in the OpenAPI document.

type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  anyOf?: TJsonSchema[];
  [key: string]: unknown;
};

const cache = new Map<string, TJsonSchema>();

type TProcedureDef = { inputs: z.ZodType[]; type: 'query' | 'mutation' };

/**
 * The root router whose procedures the API calls, handed over at start (registerPublicApi): the
 * root router imports this feature for its keys' procedures, so this feature cannot import it.
 */
let bound: AnyRouter | undefined;
export function bindRouter(router: AnyRouter) {
  bound = router;
  cache.clear();
}

export function procedureDef(path: string): TProcedureDef {
  if (!bound) throw new Error('the public API has no router yet (registerPublicApi binds it)');
  const procedures = (bound as unknown as { _def: { procedures: Record<string, { _def: TProcedureDef }> } })
    ._def.procedures;
  const def = procedures[path]?._def;
  if (!def) throw new Error(`no procedure ${path}`);
  return def;
}

/** The procedure's input as JSON Schema draft 2020-12 (what OpenAPI 3.1 uses), as a caller writes it. */
export function inputJsonSchema(procedure: string): TJsonSchema {
  const hit = cache.get(procedure);
  if (hit) return hit;
  const input = procedureDef(procedure).inputs.at(-1);
  const schema = input
    ? (z.toJSONSchema(input, {
        io: 'input',
        target: 'draft-2020-12',
        // A Date is sent as an ISO 8601 instant.
        unrepresentable: 'any',
        override: ({ zodSchema, jsonSchema }) => {
          if ((zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'date') {
            jsonSchema.type = 'string';
            jsonSchema.format = 'date-time';
          }
        },
      }) as TJsonSchema)
    : { type: 'object', properties: {} };
  delete schema.$schema;
  cache.set(procedure, schema);
  return schema;
}

/** Paging and path fields the API fills itself, so never a caller's query parameter or body field. */
export const PAGING_FIELDS = new Set(['page', 'pageSize', 'cursor']);

/** The body an operation takes: the procedure's input less the path's id (or the nested part). */
export function bodySchema(op: TOperation): TJsonSchema {
  const input = inputJsonSchema(op.procedure);
  if (op.bodyField) return input.properties?.[op.bodyField] ?? { type: 'object' };
  if (!op.idField) return input;
  const { [op.idField]: _id, ...properties } = input.properties ?? {};
  return {
    ...input,
    properties,
    ...(input.required ? { required: input.required.filter((name) => name !== op.idField) } : {}),
  };
}

/** A list's filters as query parameters: each top-level field but paging and the path's id. */
export function queryParameters(op: TOperation) {
  const input = inputJsonSchema(op.procedure);
  return Object.entries(input.properties ?? {})
    .filter(([name]) => !PAGING_FIELDS.has(name) && name !== op.idField)
    .map(([name, schema]) => ({ name, schema, required: input.required?.includes(name) ?? false }));
}

const typesOf = (schema: TJsonSchema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
};

/**
 * A query string's text as the value the schema wants: numbers, booleans, arrays (repeated or
 * comma-separated) and objects (JSON). Anything that does not read is passed on as text, so the
 * procedure's own schema refuses it with its own message.
 */
export function coerceQuery(op: TOperation, query: Record<string, unknown>): Record<string, unknown> {
  const properties = inputJsonSchema(op.procedure).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(query)) {
    const schema = properties[name];
    if (!schema || PAGING_FIELDS.has(name) || name === op.idField) continue;
    const types = typesOf(schema);
    const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
    if (types.includes('array')) {
      const itemTypes = typesOf((schema.items as TJsonSchema | undefined) ?? {});
      out[name] = values.flatMap((v) => v.split(',')).map((v) => scalar(v, itemTypes));
    } else if (types.includes('object')) {
      try {
        out[name] = JSON.parse(values[0] ?? '');
      } catch {
        out[name] = values[0];
      }
    } else {
      out[name] = scalar(values[0] ?? '', types);
    }
  }
  return out;
}

function scalar(text: string, types: string[]): unknown {
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === 'null') return null;
  return text;
}
