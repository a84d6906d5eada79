import { describe, expect, it } from 'vitest';
import {
  clientCodeSequence,
  decodeCursor,
  encodeCursor,
  nextClientCode,
  ZClientBulk,
  ZClientCreate,
  ZClientInput,
  ZClientListInput,
} from './clients';

describe('ZClientInput', () => {
  it('normalises blanks to null, trims, lower-cases email and de-duplicates tags', () => {
    const parsed = ZClientInput.parse({
      code: ' AB-1 ',
      name: ' Asha Rao ',
      email: ' Asha@Rao.TEST ',
      phone: '',
      country: 'in',
      tags: ['GST', 'gst', ' vip '],
    });
    expect(parsed).toMatchObject({
      code: 'AB-1',
      name: 'Asha Rao',
      email: 'asha@rao.test',
      phone: null,
      country: 'IN',
      tags: ['gst', 'vip'],
      type: 'individual',
      status: 'active',
      location: null,
      groupId: null,
    });
  });

  it('says what is wrong in words a person can act on', () => {
    const messages = (input: unknown) =>
      ZClientInput.safeParse(input).error?.issues.map((i) => i.message) ?? [];
    expect(messages({ code: 'a b', name: 'Asha' })).toEqual([
      'Use letters, digits, dashes and underscores only in the code',
    ]);
    expect(messages({ code: 'A1', name: 'Asha', email: 'nope' })).toEqual(['Enter a valid email address']);
    expect(messages({ code: 'A1', name: 'Asha', phone: 'call me' })).toEqual([
      'Use digits, spaces and + ( ) - . only in the phone number',
    ]);
    expect(messages({ code: 'A1', name: 'Asha', location: { lat: 0, lng: 200 } })).toEqual([
      'Longitude must be between -180 and 180',
    ]);
    expect(
      messages({ code: 'A1', name: 'Asha', country: 'US', taxIds: [{ kind: 'PAN', value: 'X1' }] }),
    ).toEqual(['Choose one of EIN']);
  });
});

describe('list input and cursor', () => {
  it('defaults to active clients by name, archived hidden', () => {
    expect(ZClientListInput.parse({})).toMatchObject({
      sort: 'name',
      direction: 'asc',
      archived: 'hide',
      page: 1,
    });
  });

  it('round-trips a cursor and refuses a forged one', () => {
    const value = { v: 'Mehta & Sons – ₹', id: '0b6f7a54-3c1e-4d1a-9a4b-6f3e1c2d9e10' };
    const cursor = encodeCursor(value);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(value);
    expect(decodeCursor('bm90LWEtY3Vyc29y')).toBeNull();
    expect(decodeCursor('!!!')).toBeNull();
  });
});

describe('bulk input', () => {
  it('takes one action over at least one id', () => {
    expect(
      ZClientBulk.safeParse({ ids: [], action: { kind: 'addTag', tag: 'x' } }).error?.issues[0]?.message,
    ).toBe('Choose at least one client');
    expect(
      ZClientBulk.parse({
        ids: ['0b6f7a54-3c1e-4d1a-9a4b-6f3e1c2d9e10'],
        action: { kind: 'addTag', tag: ' Audit ' },
      }).action,
    ).toEqual({ kind: 'addTag', tag: 'audit' });
  });
});

describe('clientCodeSequence', () => {
  it('continues past the highest C-and-digits code, keeping its width', () => {
    expect(nextClientCode(['C000001', 'C000300', 'C000299'])).toBe('C000301');
    expect(nextClientCode(['c00041', 'ACME-7', 'C9'])).toBe('C00042');
    expect(nextClientCode(['C1', 'C0001'])).toBe('C0002');
    expect(nextClientCode(['C9'])).toBe('C10');
    expect(nextClientCode(['C99999'])).toBe('C100000');
  });

  it('starts at C00001 when no code has that shape', () => {
    expect(nextClientCode([])).toBe('C00001');
    expect(nextClientCode(['ACME', 'X12', null])).toBe('C00001');
  });

  it('numbers several in a row', () => {
    const next = clientCodeSequence(['C000300']);
    expect([next(), next()]).toEqual(['C000301', 'C000302']);
  });
});

describe('ZClientCreate', () => {
  it('takes the team members, once each, and nothing by default', () => {
    const id = '8a0c3d0e-7a43-4a8e-9b1e-2d6a1f0c9e11';
    expect(ZClientCreate.parse({ code: 'C1', name: 'Asha Rao' }).teamMemberIds).toEqual([]);
    expect(
      ZClientCreate.parse({ code: 'C1', name: 'Asha Rao', teamMemberIds: [id, id] }).teamMemberIds,
    ).toEqual([id]);
  });
});
