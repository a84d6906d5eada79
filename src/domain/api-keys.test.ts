import { describe, expect, it } from 'vitest';
import { apiKeyState, ZApiKeyCreate } from './api-keys';

describe('API keys', () => {
  it('are active until revoked or past their expiry', () => {
    const now = new Date('2026-11-29T12:00:00Z');
    expect(apiKeyState({ revokedAt: null, expiresAt: null }, now)).toBe('active');
    expect(apiKeyState({ revokedAt: null, expiresAt: new Date('2026-11-29T12:00:01Z') }, now)).toBe('active');
    expect(apiKeyState({ revokedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(apiKeyState({ revokedAt: now, expiresAt: null }, now)).toBe('revoked');
  });

  it('need a name and a role, and an expiry in the future when one is given', () => {
    const roleId = '0195f0a0-0000-7000-8000-000000000000';
    expect(ZApiKeyCreate.safeParse({ name: ' Zapier ', roleId }).data).toEqual({ name: 'Zapier', roleId });
    const messages = (input: unknown) => ZApiKeyCreate.safeParse(input).error?.issues.map((i) => i.message);
    expect(messages({ name: '', roleId: 'x' })).toEqual(['Give the key a name', 'Choose a role for the key']);
    expect(messages({ name: 'a', roleId, expiresAt: new Date(Date.now() - 1000) })).toEqual([
      'Choose an expiry date in the future',
    ]);
  });
});
