import { z } from 'zod';
import { GST_STATES } from '../billing/gst-states';
import { escapeHtml, ZBroadcastContent } from '../broadcasts';
import { isIsoDate } from '../days';
import { zInt, zString } from '../fields';
import { FILING_CODES, findFiling, type TFiling } from './catalogue';
import { filingDueDate, filingPeriodByKey } from './rules';

// Inputs of the statutory calendar's procedures (issue 39).

export const ZFilingCode = z.enum(
  FILING_CODES as [string, ...string[]],
  'Choose a filing from the catalogue',
);
const ZDay = zString().trim().refine(isIsoDate, 'Enter a date as YYYY-MM-DD');

export const ZGapsInput = z.object({
  page: zInt().min(1, 'Page must be 1 or more').default(1),
  pageSize: zInt().min(1).max(200, 'Page size must be at most 200').default(50),
  filingCode: ZFilingCode.optional(),
});
export type TGapsQuery = z.output<typeof ZGapsInput>;

export const MAX_ENGAGE = 500;
export const ZEngageInput = z.object({
  items: z
    .array(z.object({ clientId: z.uuid('Choose a client from the list'), filingCode: ZFilingCode }))
    .min(1, 'Choose at least one gap')
    .max(MAX_ENGAGE, `Choose at most ${MAX_ENGAGE} at a time`),
  startDate: ZDay,
});
export type TEngageInput = z.output<typeof ZEngageInput>;

export const ZExtensionInput = z
  .object({
    filingCode: ZFilingCode,
    periodKey: zString().trim().max(12, 'Choose a period of the filing'),
    /** A GST state code: the extension is for that state's registrations only. */
    stateCode: z
      .enum(GST_STATES.map((s) => s.code) as [string, ...string[]], 'Choose a state')
      .nullish()
      .transform((v) => v ?? null),
    dueDate: ZDay,
    note: zString()
      .trim()
      .max(500, 'Note must be at most 500 characters')
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((v, ctx) => {
    for (const p of extensionProblems(v, findFiling(v.filingCode)))
      ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
  });
export type TExtensionInput = z.output<typeof ZExtensionInput>;

/**
 * What is wrong with an extension of this filing (as the catalogue version in force describes it):
 * the form checks it against the newest catalogue, the server again against the firm's version.
 */
export function extensionProblems(
  v: { periodKey: string; dueDate: string },
  filing: TFiling | null,
): { field: 'periodKey' | 'dueDate'; message: string }[] {
  if (!filing) return [];
  const period = filingPeriodByKey(filing, v.periodKey);
  if (!period) return [{ field: 'periodKey', message: `This is not a period of ${filing.name}` }];
  if (isIsoDate(v.dueDate) && v.dueDate <= filingDueDate(filing, period.end))
    return [{ field: 'dueDate', message: 'An extension moves the due date later than the statutory one' }];
  return [];
}

/** Accepting a catalogue release: the version the firm reviewed (a newer one shipped since is refused). */
export const ZCatalogueAccept = z.object({
  version: zString()
    .trim()
    .min(1, 'Choose the version you reviewed')
    .max(20, 'Choose the version you reviewed'),
});

export const ZExtensionRef = z.object({ extensionId: z.uuid('Choose an extension from the list') });

/**
 * Applying an extension; with `notice`, a broadcast tells the clients whose projects moved (a
 * broadcast's subject and message, from a template or the default notice, edited as the sender likes).
 */
export const ZExtensionApply = ZExtensionRef.extend({
  notice: ZBroadcastContent.extend({
    templateId: z.uuid('Choose a template from the list').nullish(),
  }).nullish(),
});
export type TExtensionNotice = NonNullable<z.output<typeof ZExtensionApply>['notice']>;

/** The default notice: the filing, its period, the old and the new due date as the firm writes dates. */
export function defaultExtensionNotice(d: {
  filingName: string;
  periodLabel: string;
  stateLabel: string | null;
  oldDue: string;
  newDue: string;
}): { subject: string; bodyHtml: string } {
  const where = d.stateLabel ? ` in ${d.stateLabel}` : '';
  return {
    subject: `${d.filingName} for ${d.periodLabel}: now due ${d.newDue}`,
    bodyHtml: [
      '<p>Dear {{contact_name|Sir or Madam}},</p>',
      `<p>The government has extended the due date of ${escapeHtml(d.filingName)} for ${escapeHtml(d.periodLabel)}${escapeHtml(where)} from ${escapeHtml(d.oldDue)} to ${escapeHtml(d.newDue)}. We have moved our work for {{client_name}} to the new date.</p>`,
      '<p>{{pending_items|Nothing is pending from you for now.}}</p>',
      '<p>Regards,<br>{{firm_name}}</p>',
    ].join(''),
  };
}
