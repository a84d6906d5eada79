import { describe, expect, it } from 'vitest';
import { ACCESS_TURNED_OFF_MESSAGE, parseSignedOutReason, SIGNED_OUT_REASONS } from './signed-out';

describe('the reason a member was signed out', () => {
  it('is one of a few known keys, never free text from the URL', () => {
    expect(parseSignedOutReason('access-off')).toBe('access-off');
    expect(SIGNED_OUT_REASONS['access-off']).toBe(ACCESS_TURNED_OFF_MESSAGE);
    for (const value of ['Your account was hacked', 'toString', '__proto__', '', 42, undefined]) {
      expect(parseSignedOutReason(value)).toBeUndefined();
    }
  });
});
