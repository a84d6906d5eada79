import { describe, expect, it } from 'vitest';
import { parsePasswordsSearch, passwordsListInput } from './passwords-search';

describe('/vault/passwords search params', () => {
  it('keeps valid filters and drops hand-edited nonsense', () => {
    const id = '0194f5a2-7b3c-7def-8123-456789abcdef';
    expect(
      parsePasswordsSearch({ client: id, tag: 'gst', sort: 'passwordChangedAt', page: 2 }),
    ).toMatchObject({
      client: id,
      tag: 'gst',
      sort: 'passwordChangedAt',
      page: 2,
    });
    expect(parsePasswordsSearch({ client: 'firm' }).client).toBe('firm');
    const bad = parsePasswordsSearch({ client: 'nope', sort: 'password', page: -1, pageSize: 10_000 });
    expect(bad.client).toBeUndefined();
    expect(bad.sort).toBeUndefined();
    expect(bad.page).toBeUndefined();
    expect(bad.pageSize).toBe(100);
  });

  it('turns the URL into the list input with defaults', () => {
    expect(passwordsListInput({})).toEqual({ page: 1, pageSize: 25, sort: 'title', direction: 'asc' });
    expect(passwordsListInput({ search: 'gst', client: 'firm' })).toMatchObject({
      search: 'gst',
      client: 'firm',
    });
  });
});
