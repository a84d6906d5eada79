import { describe, expect, it } from 'vitest';
import { greeting } from './greeting';

describe('greeting by local hour', () => {
  const at = (h: number, m: number) => new Date(2026, 10, 22, h, m);
  it('says Good Morning before 12, Good Afternoon before 18, Good Evening after', () => {
    expect(greeting(at(0, 0))).toBe('Good Morning');
    expect(greeting(at(11, 59))).toBe('Good Morning');
    expect(greeting(at(12, 0))).toBe('Good Afternoon');
    expect(greeting(at(17, 59))).toBe('Good Afternoon');
    expect(greeting(at(18, 0))).toBe('Good Evening');
    expect(greeting(at(23, 59))).toBe('Good Evening');
  });
});
