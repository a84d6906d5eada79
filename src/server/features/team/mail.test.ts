import { describe, expect, it } from 'vitest';
import { inviteMessage } from './mail';

// The invitation states its expiry on the firm's clock, as the firm's screens do.
const config = { publicUrl: 'https://practice.example' };
const expiresAt = new Date('2026-11-30T20:00:00Z');

describe('the team invitation mail', () => {
  it('give the team invitation’s expiry in the firm’s zone and style', () => {
    const mail = inviteMessage(config, {
      to: 'ravi@sharma.test',
      key: 'k',
      firmName: 'Sharma & Associates',
      inviterName: 'Meera Sharma',
      roleName: 'Staff',
      firm: { country: 'US', timeZone: 'America/New_York', currency: 'USD' },
      expiresAt,
    });
    expect(mail.text).toContain('The link works until Nov 30, 2026, 3:00 PM (America/New_York).');
  });
});
