import { describe, expect, it } from 'vitest';
import {
  isPortalInviteKey,
  PORTAL_MESSAGES,
  portalInviteMessage,
  portalInviteState,
  ZClientUserInvite,
  ZPortalCodeVerify,
} from './client-users';

const base = { acceptedAt: null, revokedAt: null, userStatus: 'invited' as const };
const now = new Date('2026-11-22T10:00:00Z');

describe('portal invitation state', () => {
  it('is open until it expires, and used, withdrawn or turned off say so first', () => {
    const future = new Date('2026-11-29T10:00:00Z');
    expect(portalInviteState({ ...base, expiresAt: future }, now)).toBe('open');
    expect(portalInviteState({ ...base, expiresAt: now }, now)).toBe('expired');
    expect(portalInviteState({ ...base, expiresAt: future, acceptedAt: now }, now)).toBe('accepted');
    expect(portalInviteState({ ...base, expiresAt: future, revokedAt: now }, now)).toBe('revoked');
    expect(portalInviteState({ ...base, expiresAt: now, userStatus: 'disabled' }, now)).toBe('disabled');
    // Used beats everything: the person is in.
    expect(portalInviteState({ ...base, expiresAt: now, acceptedAt: now, userStatus: 'disabled' }, now)).toBe(
      'accepted',
    );
  });

  it('names the firm in what a closed link says', () => {
    expect(portalInviteMessage('expired', 'Mehta & Co')).toBe(
      'This invitation has expired. Ask Mehta & Co to send you a new one.',
    );
    expect(portalInviteMessage('revoked', 'Mehta & Co')).toContain('withdrawn by Mehta & Co');
    expect(portalInviteMessage('disabled', 'Mehta & Co')).toContain("Mehta & Co's portal");
  });

  it('accepts only keys of our shape', () => {
    expect(isPortalInviteKey('a'.repeat(43))).toBe(true);
    expect(isPortalInviteKey('a'.repeat(42))).toBe(false);
    expect(isPortalInviteKey(`${'a'.repeat(42)}/`)).toBe(false);
  });
});

describe('portal forms', () => {
  it('normalises the invitation and explains what is wrong', () => {
    const ok = ZClientUserInvite.parse({
      clientId: '7b0c5e1e-6d47-4f35-9a0e-2f1d5c8a9b10',
      email: '  Priya@Kapoor.TEST ',
      name: ' Priya Kapoor ',
      phone: ' +91 (98200) 000-00 ',
    });
    expect(ok).toMatchObject({
      email: 'priya@kapoor.test',
      name: 'Priya Kapoor',
      phone: '+91 (98200) 000-00',
    });
    const bad = ZClientUserInvite.safeParse({ clientId: 'x', email: 'nope', name: '', phone: 'call me' });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toEqual(
      expect.arrayContaining([
        'Choose a client',
        'Enter a valid email address',
        'Enter their name',
        'Phone may contain digits, spaces and + ( ) - . / only',
      ]),
    );
  });

  it('takes a six-digit code, spaces around it forgiven', () => {
    expect(ZPortalCodeVerify.parse({ email: 'a@b.test', code: ' 012345 ' }).code).toBe('012345');
    for (const code of ['12345', '1234567', '12a456', '']) {
      expect(ZPortalCodeVerify.safeParse({ email: 'a@b.test', code }).success).toBe(false);
    }
  });

  it('counts the attempts left in words', () => {
    expect(PORTAL_MESSAGES.codeWrong(1)).toBe('That code is not right. 1 attempt left.');
    expect(PORTAL_MESSAGES.codeWrong(3)).toBe('That code is not right. 3 attempts left.');
  });
});
