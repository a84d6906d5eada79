import { describe, expect, it } from 'vitest';
import { portalInviteMessage } from './mail';

// Invitations state their expiry on the firm's clock, as the firm's screens do: a link that dies
// at 20:00 UTC dies at 1:30 the next morning in Mumbai.
const config = { publicUrl: 'https://practice.example' };
const firm = { country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' };
const expiresAt = new Date('2026-11-30T20:00:00Z');

describe('the portal invitation mail', () => {
  it('give the portal invitation’s expiry in the firm’s zone and style', () => {
    const mail = portalInviteMessage(config, {
      to: 'priya@mehta.test',
      name: 'Priya Mehta',
      key: 'k',
      firmName: 'Sharma & Associates',
      firm,
      clientName: 'Mehta Traders',
      expiresAt,
    });
    expect(mail.text).toContain('The link works until 1 Dec 2026, 1:30 am (Asia/Kolkata).');
  });
});
