import { z } from 'zod';
import { zString, zText } from '../fields';
import {
  CONDITION_KINDS,
  ITEM_KINDS,
  MAX_CHOICES,
  MAX_ITEMS,
  MAX_SECTIONS,
  type TItemKind,
  YES_NO,
} from './constants';

// A request's items as the template editor and the sending dialog write them: sections of items,
// each with a key a later item's "shown when" names. The same shape is saved on a template and
// copied onto each request sent from it.

export const ZItemKey = zString()
  .trim()
  .min(1, 'Every item needs a key')
  .max(40, 'An item key must be at most 40 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'An item key has letters, digits, - and _ only');

export const ZItemCondition = z.object({
  key: ZItemKey,
  equals: zText({ max: 200, min: 1, label: 'The answer it depends on' }),
});
export type TItemCondition = z.infer<typeof ZItemCondition>;

export const ZRequestItemInput = z.object({
  key: ZItemKey,
  kind: z.enum(ITEM_KINDS, 'Choose what the item asks for'),
  label: zText({ max: 300, min: 1, label: 'The question' }),
  hint: zText({ max: 1000, label: 'The hint' }).default(''),
  required: z.boolean().default(true),
  /** A choice's answers; empty for other kinds. */
  options: z
    .array(zText({ max: 200, min: 1, label: 'A choice' }))
    .max(MAX_CHOICES)
    .default([]),
  condition: ZItemCondition.nullable().default(null),
});
export type TRequestItemInput = z.infer<typeof ZRequestItemInput>;

export const ZSection = z.object({
  title: zText({ max: 200, label: 'The section title' }).default(''),
  items: z.array(ZRequestItemInput).max(MAX_ITEMS, `At most ${MAX_ITEMS} items`),
});
export type TSection = z.infer<typeof ZSection>;

export { YES_NO } from './constants';

/** What is wrong with a set of sections, as [path, message] pairs; empty when it is sound. */
export function sectionProblems(
  sections: readonly TSection[],
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const earlier = new Map<string, { kind: TItemKind; options: string[] }>();
  let count = 0;
  sections.forEach((section, s) => {
    section.items.forEach((item, i) => {
      const at = [s, 'items', i];
      count += 1;
      if (earlier.has(item.key)) problems.push({ path: [...at, 'key'], message: 'Two items share this key' });
      if (item.kind === 'choice') {
        if (item.options.length < 2)
          problems.push({ path: [...at, 'options'], message: 'Give at least two choices' });
        if (new Set(item.options.map((o) => o.toLowerCase())).size !== item.options.length)
          problems.push({ path: [...at, 'options'], message: 'Each choice must differ from the others' });
      }
      const c = item.condition;
      if (c) {
        const on = earlier.get(c.key);
        if (!on || !(CONDITION_KINDS as readonly string[]).includes(on.kind)) {
          problems.push({
            path: [...at, 'condition', 'key'],
            message: 'An item can only depend on an earlier yes/no or choice item',
          });
        } else {
          const values: readonly string[] = on.kind === 'yes_no' ? YES_NO : on.options;
          if (!values.includes(c.equals))
            problems.push({
              path: [...at, 'condition', 'equals'],
              message: 'Choose one of that item’s answers',
            });
        }
      }
      earlier.set(item.key, { kind: item.kind, options: item.options });
    });
  });
  if (count === 0) problems.push({ path: [], message: 'Add at least one item' });
  if (count > MAX_ITEMS) problems.push({ path: [], message: `A request holds at most ${MAX_ITEMS} items` });
  return problems;
}

/** Sections with every rule of sectionProblems; options kept only on choices. */
export const ZSections = z
  .array(ZSection)
  .min(1, 'Add at least one section')
  .max(MAX_SECTIONS, `At most ${MAX_SECTIONS} sections`)
  .transform((sections) =>
    sections.map((s) => ({
      ...s,
      items: s.items.map((item) => (item.kind === 'choice' ? item : { ...item, options: [] })),
    })),
  )
  .superRefine((sections, ctx) => {
    for (const p of sectionProblems(sections))
      ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });
