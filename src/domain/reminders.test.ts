import { describe, expect, it } from 'vitest';
import { ZReminderInput } from './reminders';

describe('ZReminderInput', () => {
  const base = {
    title: 'Documents pending',
    channels: ['email' as const],
    remindAt: new Date(Date.now() + 60_000),
  };
  const client = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';

  it('asks for what each type needs', () => {
    const messages = (input: unknown) =>
      ZReminderInput.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages({ ...base, type: 'client' })).toEqual(['clientId: Choose the client']);
    expect(messages({ ...base, type: 'team' })).toEqual(['memberIds: Choose at least one member']);
    expect(messages({ ...base, type: 'expiry', clientId: client, remindAt: null })).toEqual([
      'itemName: Enter what expires (a certificate, a licence…)',
      'expiryDate: Enter the expiry date',
      'daysBefore: Enter how many days before to remind',
    ]);
    expect(messages({ ...base, type: 'client', clientId: client, channels: ['in_app'] })).toEqual([
      'channels: A client reminder goes by email',
    ]);
    expect(messages({ ...base, type: 'client', clientId: client, remindAt: new Date('2020-01-01') })).toEqual(
      ['remindAt: That time has passed: choose a time from now on'],
    );
    expect(messages({ ...base, type: 'client', clientId: client })).toEqual([]);
  });
});
