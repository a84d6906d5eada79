import { ZRequestTemplateSave } from '@domain/requests/schemas';
import { describe, expect, it } from 'vitest';
import {
  blankItem,
  blankSections,
  formProblems,
  freshKey,
  fromDraft,
  issuesByPath,
  toDraft,
} from './sections-draft';

describe('the sections editors hold', () => {
  it('gives each new item a key no other item has, however items were removed', () => {
    const sections = blankSections();
    const first = sections[0]?.items[0];
    expect(first?.key).toBe('item-1');
    const taken = [
      {
        items: [
          { ...blankItem([]), key: 'item-2' },
          { ...blankItem([]), key: 'item-3' },
        ],
      },
      { items: [{ ...blankItem([]), key: 'item-5' }] },
    ];
    const next = freshKey(taken);
    expect(['item-2', 'item-3', 'item-5']).not.toContain(next);
    expect(next).toMatch(/^item-\d+$/);
  });

  it('round-trips saved sections, dropping blank choices and the editor’s section ids', () => {
    const draft = toDraft([
      {
        title: 'Income',
        items: [{ key: 'sold', kind: 'choice', label: 'Sold what?', options: ['Land', 'Shares'] }],
      },
    ]);
    expect(draft[0]?.id).toMatch(/^section-\d+$/);
    expect(draft[0]?.items[0]).toMatchObject({ hint: '', required: true, condition: null });
    const item = draft[0]?.items[0];
    if (item) item.options = ['Land', '  ', 'Shares ', ''];
    expect(fromDraft(draft)).toEqual([
      {
        title: 'Income',
        items: [
          {
            key: 'sold',
            kind: 'choice',
            label: 'Sold what?',
            hint: '',
            required: true,
            options: ['Land', 'Shares'],
            condition: null,
          },
        ],
      },
    ]);
  });

  it('files the schema’s complaints under the path of the field they are about', () => {
    const blank = issuesByPath(
      ZRequestTemplateSave.safeParse({ name: '', sections: fromDraft(blankSections()) }).error,
    );
    expect(blank.get('name')).toBe('Enter the name');
    expect(blank.get('sections.0.items.0.label')).toBeTruthy();

    const sections = blankSections();
    const item = sections[0]?.items[0];
    if (item) {
      item.label = 'Sale deed';
      item.condition = { key: 'nowhere', equals: 'yes' };
    }
    const parsed = ZRequestTemplateSave.safeParse({ name: 'Year end', sections: fromDraft(sections) });
    expect(issuesByPath(parsed.error).get('sections.0.items.0.condition.key')).toBe(
      'An item can only depend on an earlier yes/no or choice item',
    );

    // With the name still blank zod stops before the sections' rules; the form names both at once.
    const both = ZRequestTemplateSave.safeParse({ name: '', sections: fromDraft(sections) });
    const problems = formProblems(both.error, sections);
    expect(problems.get('name')).toBe('Enter the name');
    expect(problems.get('sections.0.items.0.condition.key')).toBe(
      'An item can only depend on an earlier yes/no or choice item',
    );
  });
});
