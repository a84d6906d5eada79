import { describe, expect, it } from 'vitest';
import { decodeAuthLinkKey, encodeAuthLinkKey, resetPasswordLink, verifyLink } from './auth-links';

describe('auth link keys', () => {
  it('round-trips user name and code, including non-ASCII names', () => {
    for (const username of ['ann@example.com', 'Zoë Ñandú+tag@exämple.org', 'a']) {
      const key = encodeAuthLinkKey({ username, code: '012345' });
      expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeAuthLinkKey(key)).toEqual({ username, code: '012345' });
    }
  });

  it('refuses keys that are not ours', () => {
    expect(decodeAuthLinkKey('')).toBeNull();
    expect(decodeAuthLinkKey('not base64!')).toBeNull();
    expect(decodeAuthLinkKey(encodeURIComponent('{"u":1}'))).toBeNull();
    expect(decodeAuthLinkKey(btoa('{"u":"x"}').replace(/=+$/, ''))).toBeNull();
    expect(decodeAuthLinkKey(btoa('[]'))).toBeNull();
    expect(decodeAuthLinkKey('x'.repeat(3000))).toBeNull();
  });

  it('builds the web app links', () => {
    const key = encodeAuthLinkKey({ username: 'u', code: '1' });
    expect(verifyLink('https://app.test', { username: 'u', code: '1' })).toBe(
      `https://app.test/auth/verify/${key}`,
    );
    expect(resetPasswordLink('https://app.test', { username: 'u', code: '1' })).toBe(
      `https://app.test/auth/resetpassword/${key}`,
    );
  });
});
