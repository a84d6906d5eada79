import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, isLargeScreen } from './constants';

describe('breakpoints', () => {
  it('are the spec’s and the large-screen flag is set from lg', () => {
    expect(BREAKPOINTS).toEqual({ sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 });
    expect(isLargeScreen(1023)).toBe(false);
    expect(isLargeScreen(1024)).toBe(true);
    expect(isLargeScreen(375)).toBe(false);
  });
});
