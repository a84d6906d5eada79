import type { TItemKind } from '@domain/requests/constants';
import { sectionProblems, type TItemCondition } from '@domain/requests/items';
import type { z } from 'zod';

/** An item as the editors hold it while it is typed: every field present, checked on save. */
export type TDraftItem = {
  key: string;
  kind: TItemKind;
  label: string;
  hint: string;
  required: boolean;
  options: string[];
  condition: TItemCondition | null;
};
/** `id` is the editor's own, so React keeps a section's fields when one above it goes. */
export type TDraftSection = { id: string; title: string; items: TDraftItem[] };

let sectionCount = 0;
export const sectionId = () => {
  sectionCount += 1;
  return `section-${sectionCount}`;
};

type TStoredItem = Partial<Omit<TDraftItem, 'key' | 'kind' | 'label'>> &
  Pick<TDraftItem, 'key' | 'kind' | 'label'>;

/** A template's (or a request's) saved sections, as the editor holds them. */
export function toDraft(sections: readonly { title?: string; items: readonly TStoredItem[] }[]) {
  return sections.map((s) => ({
    id: sectionId(),
    title: s.title ?? '',
    items: s.items.map((i) => ({
      key: i.key,
      kind: i.kind,
      label: i.label,
      hint: i.hint ?? '',
      required: i.required ?? true,
      options: [...(i.options ?? [])],
      condition: i.condition ?? null,
    })),
  }));
}

/** Sections as the schema wants them: choices trimmed, blank lines dropped. */
export function fromDraft(sections: readonly TDraftSection[]) {
  return sections.map((s) => ({
    title: s.title,
    items: s.items.map((i) => ({ ...i, options: i.options.map((o) => o.trim()).filter(Boolean) })),
  }));
}

/**
 * A key no item of these sections has: conditions name items by key, so keys stay put when items
 * move or their questions are reworded.
 */
export function freshKey(sections: readonly Pick<TDraftSection, 'items'>[]): string {
  const taken = new Set(sections.flatMap((s) => s.items.map((i) => i.key)));
  let n = taken.size + 1;
  while (taken.has(`item-${n}`)) n += 1;
  return `item-${n}`;
}

/** One untitled section holding one blank item: where a new template or request starts. */
export function blankSections(): TDraftSection[] {
  return [{ id: sectionId(), title: '', items: [blankItem([])] }];
}

export function blankItem(sections: readonly Pick<TDraftSection, 'items'>[]): TDraftItem {
  return {
    key: freshKey(sections),
    kind: 'file',
    label: '',
    hint: '',
    required: true,
    options: [],
    condition: null,
  };
}

/** A form's zod issues by their dotted path (`sections.0.items.2.label`), the first message of each. */
export function issuesByPath(error: z.ZodError | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const issue of error?.issues ?? []) {
    const key = issue.path.join('.');
    if (!map.has(key)) map.set(key, issue.message);
  }
  return map;
}

/**
 * The form's complaints by path, with the sections' own rules added: zod skips those (conditions,
 * duplicate choices) while any field is still invalid, and a form should name every fault at once.
 */
export function formProblems(error: z.ZodError | undefined, sections: readonly TDraftSection[]) {
  const map = issuesByPath(error);
  if (!error) return map;
  for (const p of sectionProblems(fromDraft(sections))) {
    const key = ['sections', ...p.path].join('.');
    if (!map.has(key)) map.set(key, p.message);
  }
  return map;
}
