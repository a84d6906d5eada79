import { z } from 'zod';
import { zString } from './fields';

/** A member edits their own name, phone and picture (the user menu's "My profile"). */
export const ZUpdateProfile = z.object({
  firstName: zString().trim().min(1, 'First name is required').max(80, 'First name is too long'),
  lastName: zString().trim().min(1, 'Last name is required').max(80, 'Last name is too long'),
  phone: zString()
    .trim()
    .max(30, 'Phone is too long')
    .refine((v) => v === '' || /^\+?[0-9 ()./-]{5,}$/.test(v), 'Enter a phone number, e.g. +91 98765 43210')
    .transform((v) => (v === '' ? null : v)),
  picture: zString()
    .trim()
    .max(1000, 'Picture address is too long')
    .refine(
      (v) => v === '' || (URL.canParse(v) && new URL(v).protocol === 'https:'),
      'Enter an https:// address of an image',
    )
    .transform((v) => (v === '' ? null : v)),
});
export type TUpdateProfileInput = z.input<typeof ZUpdateProfile>;
export type TUpdateProfile = z.output<typeof ZUpdateProfile>;
