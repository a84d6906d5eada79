import fc from 'fast-check';

// Arbitraries for the fuzz suite (src/server/fuzz.test.ts): a value a zod 4 schema would accept (from
// the schema's own definition, `schema._zod.def`, so a new field is fuzzed without anyone listing
// it), and the same value mutated with what a hostile or broken client sends.

/** The settings of a run: `npm run fuzz -- --runs N --seed S` sets them; `npm test` uses the defaults. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 1616);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 30);

type TDef = {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> & { check: string } } }[];
  format?: string;
  pattern?: RegExp;
  shape?: Record<string, TSchema>;
  innerType?: TSchema;
  element?: TSchema;
  in?: TSchema;
  out?: TSchema;
  options?: TSchema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: TSchema;
  valueType?: TSchema;
  items?: TSchema[];
  getter?: () => TSchema;
};
export type TSchema = { _zod: { def: TDef } };

/** Where the ids come from: the caller's firm's records, another firm's, and ones that exist nowhere. */
export type TIdPool = { own: string[]; other: string[] };

const FAR_FUTURE = '+275760-09-13T00:00:00.000Z';
const FAR_PAST = '-271821-04-20T00:00:00.000Z';

/** Strings that have broken servers: NUL, lone surrogates, far dates, SQL and path tricks, sizes. */
export const EVIL_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202e\u0000',
  '%00',
  '%',
  "' OR 1=1 --",
  '\\',
  '../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, on purpose
  '${7*7}',
  'NaN',
  'Infinity',
  '-1',
  '2147483648',
  '99999999999999999999999',
  '1e309',
  FAR_FUTURE,
  FAR_PAST,
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '__proto__',
  'constructor',
  '\r\n\t',
  '🙂'.repeat(3000),
  'x'.repeat(10_000),
  'x'.repeat(200_000),
];

export const EVIL_NUMBERS: number[] = [
  0,
  -0,
  -1,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  2 ** 63,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

export const EVIL_DATES: Date[] = [
  new Date(8.64e15),
  new Date(-8.64e15),
  new Date(Number.NaN),
  new Date(0),
  new Date('0001-01-01T00:00:00.000Z'),
  new Date('9999-12-31T23:59:59.999Z'),
];

function nest(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Wrong types and shapes: for any field or the whole input. */
export const EVIL_VALUES: unknown[] = [
  null,
  undefined,
  true,
  false,
  [],
  {},
  [[[]]],
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
  2n ** 64n,
  -(2n ** 70n),
  new Map([['a', 1]]),
  new Set([1, 2]),
  /x/g,
  nest(64),
  nest(3000),
  Array.from({ length: 5000 }, (_, i) => i),
  ...EVIL_DATES,
];

export const evilString = fc.constantFrom(...EVIL_STRINGS);
export const evilValue = fc.oneof(
  { arbitrary: evilString, weight: 3 },
  { arbitrary: fc.constantFrom(...EVIL_NUMBERS), weight: 3 },
  { arbitrary: fc.constantFrom(...EVIL_VALUES), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.anything({ maxDepth: 3 }), weight: 1 },
);

function idArb(pool: TIdPool) {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...pool.own), weight: 6 },
    { arbitrary: fc.constantFrom(...pool.other), weight: 2 },
    { arbitrary: fc.uuid(), weight: 1 },
  );
}

function checksOf(def: TDef) {
  return (def.checks ?? []).map((c) => c._zod.def);
}

const plainText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('Fuzz client', 'GST', 'a', 'Z', '2026-04-01', 'x@example.test'),
);

/** Half the time the leaf's valid value, half a hostile one (when the schema lets any through). */
function leaf(valid: fc.Arbitrary<unknown>, hostile: unknown[], on: boolean): fc.Arbitrary<unknown> {
  if (!on || hostile.length === 0) return valid;
  return fc.oneof(valid, fc.constantFrom(...hostile));
}

/** Strings shaped like dates at the edges (for fields a date pattern checks). */
const EDGE_DATE_STRINGS = [
  '0000-00-00',
  '0000-01-01',
  '9999-12-31',
  '9999-99-99',
  '2026-02-30',
  '2026-13-01',
  '1900-01-01',
  '275760-09-13',
];

/**
 * A value the schema is likely to accept (its refinements aside). `hostile`: each leaf may instead be
 * the worst value the schema still lets through — NUL or a lone surrogate in free text, 2^31 or 2^53
 * where any integer goes, a date ±275,760 years away, a pattern-shaped date that does not exist — so
 * it reaches the code and the database behind the schema.
 */
export function validArb(schema: TSchema, pool: TIdPool, depth = 0, hostile = false): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  if (depth > 12) return fc.constant(undefined);
  const next = (s: TSchema) => validArb(s, pool, depth + 1, hostile);
  switch (def.type) {
    case 'string': {
      const checks = checksOf(def);
      const format = def.format ?? (checks.find((c) => c.check === 'string_format')?.format as string);
      if (format === 'uuid' || format === 'guid') return idArb(pool);
      if (format === 'email') return fc.emailAddress();
      if (format === 'regex') {
        const pattern = (def.pattern ?? checks.find((c) => c.format === 'regex')?.pattern) as RegExp;
        if (pattern)
          return leaf(
            fc.stringMatching(pattern, { size: 'xsmall' }),
            [...EVIL_STRINGS, ...EDGE_DATE_STRINGS].filter((x) => pattern.test(x)),
            hostile,
          );
      }
      if (format === 'datetime') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (format === 'date') return fc.constantFrom('2026-04-01', '2025-12-31', '2099-01-31');
      const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0);
      const max = Number(checks.find((c) => c.check === 'max_length')?.maximum ?? 60);
      const fits = (x: string) => x.length >= min && x.length <= max;
      return leaf(
        fc.oneof(
          plainText.filter(fits),
          fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 30)) }),
        ),
        [...EVIL_STRINGS, ...EDGE_DATE_STRINGS, `Fuzz\u0000${'x'.repeat(Math.max(0, min - 5))}`].filter(fits),
        hostile,
      );
    }
    case 'number': {
      const checks = checksOf(def);
      const int = checks.some((c) => c.format === 'safeint' || c.format === 'int32');
      const lo = checks.find((c) => c.check === 'greater_than')?.value as number | undefined;
      const hi = checks.find((c) => c.check === 'less_than')?.value as number | undefined;
      const min = Math.max(lo ?? -1000, -1e6);
      const max = Math.min(hi ?? 1000, 1e6);
      const evil = EVIL_NUMBERS.filter(
        (n) =>
          (lo === undefined || n >= lo) && (hi === undefined || n <= hi) && (!int || Number.isSafeInteger(n)),
      );
      return leaf(
        int
          ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
          : fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
        evil,
        hostile,
      );
    }
    case 'bigint':
      return fc.bigInt({ min: -1000n, max: 1000n });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return leaf(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        EVIL_DATES,
        hostile,
      );
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [undefined]));
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'object': {
      const shape = def.shape ?? {};
      const keys = Object.keys(shape);
      const required = keys.filter((k) => !['optional', 'default'].includes(shape[k]?._zod.def.type ?? ''));
      return fc.record(Object.fromEntries(keys.map((k) => [k, next(shape[k] as TSchema)])), {
        requiredKeys: required,
      });
    }
    case 'array': {
      const checks = checksOf(def);
      const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0);
      const max = Number(checks.find((c) => c.check === 'max_length')?.maximum ?? 4);
      return fc.array(next(def.element as TSchema), { minLength: min, maxLength: Math.min(max, min + 4) });
    }
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map(next));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), next(def.valueType as TSchema), { maxKeys: 3 });
    case 'optional':
      return fc.option(next(def.innerType as TSchema), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(next(def.innerType as TSchema), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
      return fc.option(next(def.innerType as TSchema), { nil: undefined, freq: 3 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return next(def.innerType as TSchema);
    case 'union':
      return fc.oneof(...(def.options ?? []).map(next));
    case 'intersection':
      return fc.constant({});
    case 'pipe':
      return next(def.in as TSchema);
    case 'lazy':
      return def.getter ? next(def.getter()) : fc.constant(undefined);
    default:
      // transform, custom, any, unknown, …: whatever a client could send.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

type TPath = (string | number)[];

function pathsOf(value: unknown, prefix: TPath = [], out: TPath[] = []): TPath[] {
  out.push(prefix);
  if (prefix.length > 6) return out;
  if (Array.isArray(value)) for (const [i, v] of value.entries()) pathsOf(v, [...prefix, i], out);
  else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function setAt(value: unknown, path: TPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...TPath];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = setAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

/** A valid-looking input with one part (or the whole) replaced, a key added, or wrapped deep. */
export function mutatedArb(
  valid: fc.Arbitrary<unknown>,
  hostile: fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  const replaced = fc.tuple(valid, evilValue, fc.nat()).map(([value, evil, n]) => {
    const paths = pathsOf(value);
    return setAt(value, paths[n % paths.length] as TPath, evil);
  });
  const extraKey = fc
    .tuple(valid, fc.constantFrom('extra', '__proto__', 'constructor', '', '\u0000', 'orgId'), evilValue)
    .map(([value, key, evil]) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.defineProperty({ ...value }, key, { value: evil, enumerable: true })
        : value,
    );
  return fc.oneof(
    { arbitrary: valid, weight: 1 },
    { arbitrary: hostile, weight: 5 },
    { arbitrary: replaced, weight: 3 },
    { arbitrary: extraKey, weight: 1 },
    { arbitrary: evilValue, weight: 1 },
  );
}

/** The input a procedure is fuzzed with: from each of its input schemas (merged, as tRPC does). */
export function procedureInputArb(inputs: TSchema[], pool: TIdPool): fc.Arbitrary<unknown> {
  if (inputs.length === 0) return fc.oneof(fc.constant(undefined), evilValue);
  const merged = (hostile: boolean) => {
    const parts = inputs.map((s) => validArb(s, pool, 0, hostile));
    return parts.length === 1
      ? (parts[0] as fc.Arbitrary<unknown>)
      : fc
          .tuple(...parts)
          .map((values) => Object.assign({}, ...values.filter((v) => v && typeof v === 'object')));
  };
  return mutatedArb(merged(false), merged(true));
}

/** A short, readable form of a (shrunk) input for a report: long strings and deep nesting cut. */
export function describeInput(value: unknown): string {
  const seen = new WeakSet();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      return v.length > 60 ? `${v.slice(0, 20)}…(${v.length} chars)` : v;
    }
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (v === undefined) return 'undefined';
    if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? 'Invalid' : v.toISOString()})`;
    if (v instanceof Map) return `Map(${v.size})`;
    if (v instanceof Set) return `Set(${v.size})`;
    if (v instanceof RegExp) return String(v);
    if (!v || typeof v !== 'object') return v;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    if (depth > 5) return Array.isArray(v) ? '[…deep]' : '{…deep}';
    if (Array.isArray(v))
      return v.length > 8
        ? [...v.slice(0, 3).map((x) => walk(x, depth + 1)), `…(${v.length} items)`]
        : v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, walk(x, depth + 1)]),
    );
  };
  return JSON.stringify(walk(value, 0));
}
