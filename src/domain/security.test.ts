import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './security';

describe('describeUserAgent', () => {
  it('names the browser and system of common agents', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0',
      ),
    ).toBe('Firefox on macOS');
  });

  it('gives an unknown agent back, shortened, and nothing for none', () => {
    expect(describeUserAgent('SignInTest/1.0')).toBe('SignInTest/1.0');
    expect(describeUserAgent('x'.repeat(100))).toHaveLength(58);
    expect(describeUserAgent(null)).toBeNull();
    expect(describeUserAgent('  ')).toBeNull();
  });
});
