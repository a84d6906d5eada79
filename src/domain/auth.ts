import { z } from 'zod';
import { zString } from './fields';

// Form schemas of the staff sign-in screens. The identity provider enforces the same password
// policy (Cognito's default) and answers with Cognito's own messages.

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Why a password breaks the policy, in the provider's words; empty when it is fine. */
export function passwordPolicyProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('Password not long enough');
  if (password.length > PASSWORD_MAX_LENGTH) problems.push('Password is too long');
  if (/^\s|\s$/.test(password)) problems.push('Password must not begin or end with a space');
  if (!/[a-z]/.test(password)) problems.push('Password must have lowercase characters');
  if (!/[A-Z]/.test(password)) problems.push('Password must have uppercase characters');
  if (!/[0-9]/.test(password)) problems.push('Password must have numeric characters');
  if (!/[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]/.test(password))
    problems.push('Password must have symbol characters');
  return problems;
}

const email = zString()
  .trim()
  .toLowerCase()
  .email('Enter a valid email address')
  .max(254, 'Email is too long');

const newPassword = zString().superRefine((value, ctx) => {
  const [first] = passwordPolicyProblems(value);
  if (first) ctx.addIssue({ code: 'custom', message: first });
});

const name = (label: string) =>
  zString().trim().min(1, `${label} is required`).max(80, `${label} must be at most 80 characters`);

export const ZSignIn = z.object({
  email,
  password: zString().min(1, 'Password cannot be empty'),
});
export type TSignIn = z.infer<typeof ZSignIn>;

export const ZRegister = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  email,
  password: newPassword,
});
export type TRegister = z.infer<typeof ZRegister>;

export const ZForgotPassword = z.object({ email });
export type TForgotPassword = z.infer<typeof ZForgotPassword>;

export const ZNewPassword = z
  .object({ password: newPassword, confirm: zString() })
  .refine((v) => v.password === v.confirm, { message: 'The passwords do not match', path: ['confirm'] });
export type TNewPassword = z.infer<typeof ZNewPassword>;
