import type { SuperJSONResult } from 'superjson';
import superjson from 'superjson';

/**
 * superjson on the wire, with a fast path for what procedures return: plain objects, arrays,
 * strings, finite numbers, booleans, null and valid Dates. superjson's own walker costs about
 * 10 µs per value (it copies a path array at every step), which was a quarter of a 50-row list's
 * CPU time; this one produces the same result (bench/README.md, transformer.test.ts) and hands
 * anything else (undefined, Map, Set, BigInt, NaN, -0, class instances, an object reached twice,
 * keys superjson has to escape) to superjson unchanged. Requests are always read by superjson.
 */
export const transformer = {
  input: superjson,
  output: {
    serialize: (value: unknown): SuperJSONResult => fastSerialize(value) ?? superjson.serialize(value),
    deserialize: (value: SuperJSONResult) => superjson.deserialize(value),
  },
};

const UNSUPPORTED = Symbol('unsupported');
type TAnnotations = Record<string, ['Date']>;

export function fastSerialize(value: unknown): SuperJSONResult | null {
  // A root Date is annotated differently (values: ['Date']); leave it to superjson.
  if (value instanceof Date) return null;
  const state: TWalk = { values: null, seen: new Set(), path: [] };
  const json = walk(value, state);
  if (json === UNSUPPORTED) return null;
  if (state.values === null) return { json: json as SuperJSONResult['json'] };
  return {
    json: json as SuperJSONResult['json'],
    meta: { values: state.values, v: 1 } as SuperJSONResult['meta'],
  };
}

/**
 * The walk's state. The path to the current value is kept as a stack of keys and spelt out only
 * where a Date is found: building every value's path string was most of the walk's cost
 * (bench/README.md, issue 42).
 */
type TWalk = { values: TAnnotations | null; seen: Set<object>; path: (string | number)[] };

function walk(value: unknown, state: TWalk): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : UNSUPPORTED;
  if (typeof value !== 'object') return UNSUPPORTED;
  // superjson records every object reached twice (referential equalities): not ours to do.
  if (state.seen.has(value)) return UNSUPPORTED;
  state.seen.add(value);
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return UNSUPPORTED;
    state.values ??= {};
    state.values[state.path.join('.')] = ['Date'];
    return value.toISOString();
  }
  const { path } = state;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return UNSUPPORTED;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return UNSUPPORTED;
      path.push(i);
      const item = walk(value[i], state);
      path.pop();
      if (item === UNSUPPORTED) return UNSUPPORTED;
      out[i] = item;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return UNSUPPORTED;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // Keys superjson escapes in paths or refuses outright.
    if (
      key.includes('.') ||
      key.includes('\\') ||
      key === '__proto__' ||
      key === 'constructor' ||
      key === 'prototype'
    ) {
      return UNSUPPORTED;
    }
    path.push(key);
    const item = walk((value as Record<string, unknown>)[key], state);
    path.pop();
    if (item === UNSUPPORTED) return UNSUPPORTED;
    out[key] = item;
  }
  return out;
}
