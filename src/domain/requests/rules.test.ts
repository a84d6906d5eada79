import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswer } from './answers';
import { ITEM_KINDS } from './constants';
import { ZSections } from './items';
import {
  outstandingItems,
  progressOf,
  requestDisplayStatus,
  shownItems,
  submitBlocker,
  type TRuleItem,
} from './rules';

const item = (key: string, over: Partial<TRuleItem> = {}): TRuleItem => ({
  key,
  kind: 'short_text',
  required: true,
  condition: null,
  value: null,
  fileCount: 0,
  notApplicable: false,
  review: 'pending',
  ...over,
});

describe('which items are shown', () => {
  const sold = item('sold', { kind: 'yes_no' });
  const deed = item('deed', { kind: 'file', condition: { key: 'sold', equals: 'yes' } });
  const buyer = item('buyer', { condition: { key: 'deed', equals: 'x' } });

  it('shows an item when the item it depends on has that answer', () => {
    expect(shownItems([sold, deed]).map((i) => i.key)).toEqual(['sold']);
    expect(shownItems([{ ...sold, value: 'no' }, deed]).map((i) => i.key)).toEqual(['sold']);
    expect(shownItems([{ ...sold, value: 'yes' }, deed]).map((i) => i.key)).toEqual(['sold', 'deed']);
  });

  it('hides a whole branch with its root, and an item whose root is not applicable', () => {
    const choice = item('how', { kind: 'choice', condition: { key: 'sold', equals: 'yes' } });
    const after = item('after', { condition: { key: 'how', equals: 'Auction' } });
    expect(shownItems([{ ...sold, value: 'no' }, { ...choice, value: 'Auction' }, after])).toHaveLength(1);
    expect(shownItems([{ ...sold, value: 'yes', notApplicable: true }, deed])).toHaveLength(1);
    expect(shownItems([sold, deed, buyer]).map((i) => i.key)).toEqual(['sold']);
  });
});

describe('progress and submitting', () => {
  it('counts the shown items done ("7 of 12"); a returned one is not done until fixed', () => {
    const items = [
      item('a', { value: 'x' }),
      item('b', { notApplicable: true }),
      item('c', { kind: 'file', fileCount: 2 }),
      item('d', { kind: 'acknowledgement', value: true }),
      item('e', { value: 'y', review: 'returned' }),
      item('f', { required: false }),
      item('g', { kind: 'file', condition: { key: 'h', equals: 'yes' } }),
    ];
    expect(progressOf(items)).toEqual({ done: 4, total: 6 });
    expect(outstandingItems(items).map((i) => i.key)).toEqual(['e']);
  });

  it('lets the client submit only while it waits on them and nothing required is left', () => {
    const open = [item('a'), item('b', { required: false })];
    expect(submitBlocker('sent', open)).toBe('1 required item is still to answer');
    expect(
      submitBlocker('in_progress', [item('a', { value: 'x' }), item('b', { required: false })]),
    ).toBeNull();
    expect(submitBlocker('submitted', [item('a', { value: 'x' })])).toBe(
      'This request is not waiting on you',
    );
    expect(submitBlocker('complete', [item('a', { value: 'x' })])).not.toBeNull();
  });

  it('holds for any items: done ≤ total, and submit is allowed exactly when nothing is outstanding', () => {
    const arbItem = fc.record({
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      kind: fc.constantFrom(...ITEM_KINDS),
      required: fc.boolean(),
      condition: fc.option(
        fc.record({ key: fc.constantFrom('a', 'b', 'c'), equals: fc.constantFrom('yes', 'no', 'x') }),
        { nil: null },
      ),
      value: fc.constantFrom(null, 'yes', 'no', 'x', true, 3),
      fileCount: fc.nat(3),
      notApplicable: fc.boolean(),
      review: fc.constantFrom('pending', 'accepted', 'returned'),
    }) as fc.Arbitrary<TRuleItem>;
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 12 }), (items) => {
        const p = progressOf(items);
        expect(p.done).toBeLessThanOrEqual(p.total);
        expect(p.total).toBeLessThanOrEqual(items.length);
        expect(submitBlocker('in_progress', items) === null).toBe(outstandingItems(items).length === 0);
        if (p.done === p.total) expect(submitBlocker('sent', items)).toBeNull();
      }),
    );
  });
});

describe('overdue', () => {
  it('is derived only while the request waits on the client', () => {
    expect(requestDisplayStatus({ status: 'sent', dueDate: '2026-03-01' }, '2026-03-02')).toBe('overdue');
    expect(requestDisplayStatus({ status: 'returned', dueDate: '2026-03-01' }, '2026-03-02')).toBe('overdue');
    expect(requestDisplayStatus({ status: 'sent', dueDate: '2026-03-02' }, '2026-03-02')).toBe('sent');
    expect(requestDisplayStatus({ status: 'submitted', dueDate: '2026-03-01' }, '2026-03-02')).toBe(
      'submitted',
    );
    expect(requestDisplayStatus({ status: 'complete', dueDate: '2026-03-01' }, '2026-03-02')).toBe(
      'complete',
    );
  });
});

describe('answers', () => {
  it('keeps an answer of the item’s kind and refuses the rest with a message', () => {
    const choice = { kind: 'choice' as const, options: ['Salary', 'Business'] };
    expect(checkAnswer(choice, 'Salary')).toEqual({ ok: true, value: 'Salary' });
    expect(checkAnswer(choice, 'Lottery')).toEqual({ ok: false, message: 'Choose one of the answers' });
    expect(checkAnswer({ kind: 'yes_no', options: [] }, 'maybe').ok).toBe(false);
    expect(checkAnswer({ kind: 'date', options: [] }, '2026-02-30').ok).toBe(false);
    expect(checkAnswer({ kind: 'amount', options: [] }, 12.5).ok).toBe(false);
    expect(checkAnswer({ kind: 'amount', options: [] }, 1250)).toEqual({ ok: true, value: 1250 });
    expect(checkAnswer({ kind: 'number', options: [] }, 2.5)).toEqual({ ok: true, value: 2.5 });
    expect(checkAnswer({ kind: 'short_text', options: [] }, '  ')).toEqual({ ok: true, value: null });
    expect(checkAnswer({ kind: 'file', options: [] }, 'x').ok).toBe(false);
  });
});

describe('sections', () => {
  const q = (key: string, over: object = {}) => ({ key, kind: 'short_text', label: `Q ${key}`, ...over });

  it('takes sound sections, keeping options only on choices', () => {
    const parsed = ZSections.parse([
      {
        title: 'Property',
        items: [
          q('sold', { kind: 'yes_no', options: ['stray'] }),
          q('deed', { kind: 'file', condition: { key: 'sold', equals: 'yes' } }),
        ],
      },
    ]);
    expect(parsed[0]?.items[0]).toMatchObject({ options: [], required: true, hint: '' });
    expect(parsed[0]?.items[1]?.condition).toEqual({ key: 'sold', equals: 'yes' });
  });

  it('refuses a condition on a later, missing or free-text item, an unknown answer, duplicate keys', () => {
    const messages = (items: object[]) => {
      const r = ZSections.safeParse([{ title: '', items }]);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(
      messages([q('a', { condition: { key: 'b', equals: 'yes' } }), q('b', { kind: 'yes_no' })]),
    ).toContain('An item can only depend on an earlier yes/no or choice item');
    expect(messages([q('a'), q('b', { condition: { key: 'a', equals: 'x' } })])).toContain(
      'An item can only depend on an earlier yes/no or choice item',
    );
    expect(
      messages([q('a', { kind: 'yes_no' }), q('b', { condition: { key: 'a', equals: 'maybe' } })]),
    ).toContain('Choose one of that item’s answers');
    expect(messages([q('a'), q('a')])).toContain('Two items share this key');
    expect(messages([q('a', { kind: 'choice', options: ['One'] })])).toContain('Give at least two choices');
    expect(messages([])).toContain('Add at least one item');
  });
});
