import { isPortalTag, ZPortalTag } from '@domain/client-portal';
import { isTaskTag, ZTaskTag } from '@domain/tasks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseSystemLogSearch } from '../features/system-log/search';
import { isRecordId } from './route-guard';

// The route checks of the first page run without zod: each must accept exactly what the zod schema
// it stands for accepts.

const ids = [
  '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  '3F2504E0-4F89-41D3-9A0C-0305E82C3301',
  '3f2504e0-4f89-01d3-9a0c-0305e82c3301',
  '3f2504e0-4f89-41d3-7a0c-0305e82c3301',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-000000000001',
  '3f2504e0-4f89-41d3-9a0c-0305e82c330',
  ' 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  'not-an-id',
  '',
];
const tags = [
  'vat',
  ' VAT ',
  'a/b',
  'a?b',
  '#x',
  ' x',
  'x y',
  '',
  '   ',
  'x'.repeat(40),
  'x'.repeat(41),
  'x'.repeat(64),
  'x'.repeat(65),
  'a\u0000b',
  '\ud800',
  'gst-q1 2026',
];

describe('first-page route checks', () => {
  it('isRecordId accepts what z.uuid() accepts', () => {
    for (const id of ids) expect([id, isRecordId(id)]).toEqual([id, z.uuid().safeParse(id).success]);
  });

  it('isTaskTag and isPortalTag accept what ZTaskTag and ZPortalTag accept', () => {
    for (const tag of tags) {
      expect([tag, isTaskTag(tag)]).toEqual([tag, ZTaskTag.safeParse(tag).success]);
      expect([tag, isPortalTag(tag)]).toEqual([tag, ZPortalTag.safeParse(tag).success]);
    }
  });

  it("reads the system log's URL, falling back to the defaults", () => {
    expect(parseSystemLogSearch({})).toEqual({ page: 1, pageSize: 50, sort: 'at', direction: 'desc' });
    expect(
      parseSystemLogSearch({
        page: '3',
        pageSize: 100,
        sort: 'action',
        direction: 'asc',
        search: '  invoice ',
        actorId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        recordType: 'client',
        action: 'client.create',
        from: '2026-01-01',
        to: '2026-02-01',
      }),
    ).toEqual({
      page: 3,
      pageSize: 100,
      sort: 'action',
      direction: 'asc',
      search: 'invoice',
      actorId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      recordType: 'client',
      action: 'client.create',
      from: '2026-01-01',
      to: '2026-02-01',
    });
    expect(
      parseSystemLogSearch({
        page: 0,
        pageSize: 30,
        sort: 'who',
        direction: 'up',
        search: 'x'.repeat(201),
        actorId: 'nobody',
        from: '1 Jan',
        to: 20260101,
      }),
    ).toEqual({ page: 1, pageSize: 50, sort: 'at', direction: 'desc' });
    expect(parseSystemLogSearch({ page: 2.5 }).page).toBe(1);
  });
});
