import { describe, expect, it } from 'vitest';
import { passwordPolicyProblems, ZNewPassword, ZRegister } from './auth';

describe('password policy', () => {
  it('accepts 8+ characters with lower, upper, digit and symbol', () => {
    expect(passwordPolicyProblems('Secret#2026')).toEqual([]);
  });
  it('names what is missing', () => {
    expect(passwordPolicyProblems('Short1!')).toContain('Password not long enough');
    expect(passwordPolicyProblems('alllowercase1!')).toEqual(['Password must have uppercase characters']);
    expect(passwordPolicyProblems('NoDigits!!')).toEqual(['Password must have numeric characters']);
    expect(passwordPolicyProblems('NoSymbols123')).toEqual(['Password must have symbol characters']);
    expect(passwordPolicyProblems(' Spaced#123')).toEqual(['Password must not begin or end with a space']);
  });
});

describe('forms', () => {
  it('normalises the email and requires names', () => {
    const ok = ZRegister.parse({
      firstName: 'Asha',
      lastName: 'Rao',
      email: ' Asha@Example.COM ',
      password: 'Secret#2026',
    });
    expect(ok.email).toBe('asha@example.com');
    const bad = ZRegister.safeParse({ firstName: '', lastName: 'Rao', email: 'nope', password: 'x' });
    expect(bad.success).toBe(false);
  });
  it('requires the confirmation to match', () => {
    const result = ZNewPassword.safeParse({ password: 'Secret#2026', confirm: 'Secret#2027' });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['confirm'],
      message: 'The passwords do not match',
    });
  });
});
