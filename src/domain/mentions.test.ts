import { describe, expect, it } from 'vitest';
import { filterMentionable, insertMention, mentionQueryAt } from './mentions';

describe('mentionQueryAt', () => {
  it('finds the "@" being typed at the caret', () => {
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('Hi @sa', 6)).toEqual({ start: 3, query: 'sa' });
    expect(mentionQueryAt('Hi @Sam St', 10)).toEqual({ start: 3, query: 'Sam St' });
    expect(mentionQueryAt('line\n@ro', 8)).toEqual({ start: 5, query: 'ro' });
  });
  it('ignores emails, finished mentions and text after the caret', () => {
    expect(mentionQueryAt('mail a@b.com', 12)).toBeNull();
    expect(mentionQueryAt('@Sam Staff can you', 18)).toBeNull();
    expect(mentionQueryAt('@ sam', 5)).toBeNull();
    expect(mentionQueryAt('no mention', 10)).toBeNull();
    expect(mentionQueryAt('@sam', 0)).toBeNull();
  });
});

describe('filterMentionable', () => {
  const people = [
    { name: 'Olivia Owner', email: 'olivia@x.test' },
    { name: 'Sam Staff', email: 'sam@x.test' },
    { name: 'Rosa Samuels', email: 'rosa@x.test' },
  ];
  it('puts name and word starts first, then contains, case-insensitively', () => {
    expect(filterMentionable(people, 'sam').map((p) => p.name)).toEqual(['Sam Staff', 'Rosa Samuels']);
    expect(filterMentionable(people, 'STAFF').map((p) => p.name)).toEqual(['Sam Staff']);
    expect(filterMentionable(people, 'wner').map((p) => p.name)).toEqual(['Olivia Owner']);
    expect(filterMentionable(people, 'zzz')).toEqual([]);
    expect(filterMentionable(people, '')).toHaveLength(3);
  });
});

describe('insertMention', () => {
  it('replaces the typed "@query" with the @name and puts the caret after it', () => {
    expect(insertMention('Hi @sa', 3, 6, 'Sam Staff')).toEqual({ text: 'Hi @Sam Staff ', caret: 14 });
    expect(insertMention('@ro please', 0, 3, 'Rosa Samuels')).toEqual({
      text: '@Rosa Samuels please',
      caret: 14,
    });
  });
});
