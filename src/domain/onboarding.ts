import { z } from 'zod';
import { zNumber, zString } from './fields';
import { isTimeZone, modernTimeZone } from './time-zone-names';

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Where a firm works and how it counts time and money: set at onboarding, edited in settings. */
export const firmRegionFields = {
  country: zString()
    .trim()
    .regex(/^[A-Z]{2}$/, 'Choose a country'),
  timeZone: zString().refine(isTimeZone, 'Choose a valid time zone').transform(modernTimeZone),
  currency: zString()
    .trim()
    .regex(/^[A-Z]{3}$/, 'Choose a currency'),
  fiscalYearStartMonth: zNumber().int().min(1, 'Choose a month').max(12, 'Choose a month'),
};

/** A newly registered person creates their firm and becomes its owner. */
export const ZCreateFirm = z.object({
  firmName: zString()
    .trim()
    .min(2, 'Firm name must be at least 2 characters')
    .max(120, 'Firm name is too long'),
  firstName: zString().trim().min(1, 'First name is required').max(80, 'First name is too long'),
  lastName: zString().trim().min(1, 'Last name is required').max(80, 'Last name is too long'),
  ...firmRegionFields,
});
export type TCreateFirm = z.infer<typeof ZCreateFirm>;
