import { z } from 'zod';
import { isIsoDate } from '../days';
import { zString } from '../fields';
import { MAX_ANSWER_AMOUNT, MAX_ANSWER_LENGTH, type TItemKind } from './constants';
import { YES_NO } from './items';

// One typed answer, as the portal autosaves it: text, yes/no and choices, dates as YYYY-MM-DD,
// amounts in minor units, numbers, an acknowledgement's true. null clears it.

export const ZAnswerValue = z
  .union([zString().max(MAX_ANSWER_LENGTH, 'That answer is too long'), z.number(), z.boolean()])
  .nullable();
export type TAnswerValue = z.infer<typeof ZAnswerValue>;

export type TAnswerCheck = { ok: true; value: TAnswerValue } | { ok: false; message: string };

const SHORT_MAX = 500;

/** The answer an item of this kind keeps, or why it cannot; blank text clears the answer. */
export function checkAnswer(
  item: { kind: TItemKind; options: readonly string[] },
  raw: TAnswerValue,
): TAnswerCheck {
  const fail = (message: string): TAnswerCheck => ({ ok: false, message });
  if (raw === null || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: null };
  switch (item.kind) {
    case 'file':
      return fail('Upload files to this item: it takes no typed answer');
    case 'short_text':
    case 'long_text': {
      if (typeof raw !== 'string') return fail('Type the answer');
      const max = item.kind === 'short_text' ? SHORT_MAX : MAX_ANSWER_LENGTH;
      if (raw.length > max) return fail(`The answer must be at most ${max} characters`);
      return { ok: true, value: raw };
    }
    case 'yes_no':
      return typeof raw === 'string' && (YES_NO as readonly string[]).includes(raw)
        ? { ok: true, value: raw }
        : fail('Answer yes or no');
    case 'choice':
      return typeof raw === 'string' && item.options.includes(raw)
        ? { ok: true, value: raw }
        : fail('Choose one of the answers');
    case 'date':
      return typeof raw === 'string' && isIsoDate(raw) && raw >= '1900-01-01' && raw <= '2200-12-31'
        ? { ok: true, value: raw }
        : fail('Enter a date');
    case 'amount':
      return typeof raw === 'number' && Number.isSafeInteger(raw) && Math.abs(raw) <= MAX_ANSWER_AMOUNT
        ? { ok: true, value: raw }
        : fail('Enter an amount');
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) && Math.abs(raw) <= 1e15
        ? { ok: true, value: raw }
        : fail('Enter a number');
    case 'acknowledgement':
      return raw === true ? { ok: true, value: true } : { ok: true, value: null };
  }
}
