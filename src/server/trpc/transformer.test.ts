import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { fastSerialize, transformer } from './transformer';

const row = (n: number) => ({
  id: `0190-${n}`,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
  action: 'update',
  recordId: n % 2 ? null : `R-${n}`,
  changes: n % 3 ? null : { name: { from: 'a', to: 'b' }, due: { from: null, to: 3.5 } },
  flag: n % 2 === 0,
});

/** Values the fast path must serialise exactly as superjson does. */
const handled: unknown[] = [
  { rows: [row(1), row(2), row(3)], total: 3, page: 1, pageSize: 50 },
  { rows: [], total: 0 },
  [new Date(0), { nested: [[new Date(1)], { deep: { at: new Date(2) } }] }],
  { '': new Date(3), 'with space': 'x', 日付: new Date(4), 10: 'ten', 2: new Date(5) },
  Object.assign(Object.create(null), { a: new Date(6) }),
  'text',
  42,
  true,
  null,
  {},
  [],
];

/** Values it must leave to superjson, which serialise exactly as superjson does all the same. */
const shared = { same: 1 };
const date = new Date(7);
const unhandled: unknown[] = [
  undefined,
  { a: undefined },
  [1, undefined],
  new Date(8),
  { at: new Date(Number.NaN) },
  { n: Number.NaN },
  { n: Number.POSITIVE_INFINITY },
  { n: -0 },
  { b: 10n },
  { m: new Map([[1, 2]]) },
  { s: new Set([1]) },
  { r: /x/g },
  { e: new Error('boom') },
  { u: new URL('https://example.test/') },
  { x: shared, y: shared },
  { x: date, y: [date] },
  { 'a.b': new Date(9) },
  { 'a\\b': 1 },
  {
    c: new (class Money {
      amount = 1;
    })(),
  },
  // biome-ignore lint/suspicious/noSparseArray: a hole is what is being tested
  [1, , 3],
];

describe('output transformer', () => {
  it.each(handled.map((v) => [v]))('serialises %j exactly as superjson does', (value) => {
    const fast = fastSerialize(value);
    expect(fast).not.toBeNull();
    expect(JSON.stringify(fast)).toBe(JSON.stringify(superjson.serialize(value)));
    expect(fast).toEqual(superjson.serialize(value));
    expect(superjson.deserialize(JSON.parse(JSON.stringify(fast)))).toEqual(value);
  });

  it.each(unhandled.map((v) => [v]))('hands %s to superjson', (value) => {
    expect(fastSerialize(value)).toBeNull();
    expect(JSON.stringify(transformer.output.serialize(value))).toBe(
      JSON.stringify(superjson.serialize(value)),
    );
  });
});
