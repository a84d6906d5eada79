import { describe, expect, it } from 'vitest';
import { hasCookie } from './cookies';

describe('hasCookie', () => {
  it('finds a URL-encoded cookie name with a value', () => {
    const jar = 'a=1; CognitoIdentityServiceProvider.practiceweb.LastAuthUser=abc; b=2';
    expect(hasCookie('CognitoIdentityServiceProvider.practiceweb.LastAuthUser', jar)).toBe(true);
    expect(hasCookie('x%20y', 'x%20y=1')).toBe(false);
    expect(hasCookie('x y', 'x%20y=1')).toBe(true);
  });

  it('treats an empty value or a missing cookie as absent', () => {
    expect(hasCookie('a', 'a=')).toBe(false);
    expect(hasCookie('a', 'ab=1')).toBe(false);
    expect(hasCookie('a', '')).toBe(false);
  });
});
