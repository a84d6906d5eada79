import { Button, Field, IconButton, Input } from '@web/ui';
import { Plus, Trash2 } from 'lucide-react';
import { ItemEditor } from './item-editor';
import { blankItem, sectionId, type TDraftItem, type TDraftSection } from './sections-draft';

/**
 * A request's (or template's) sections and their items, edited in place. `errors` are the form's
 * zod issues by dotted path, under `sections.`.
 */
export function SectionsEditor({
  sections,
  onChange,
  errors,
}: {
  sections: TDraftSection[];
  onChange: (next: TDraftSection[]) => void;
  errors: Map<string, string>;
}) {
  const setSection = (s: number, next: TDraftSection) =>
    onChange(sections.map((old, i) => (i === s ? next : old)));
  const earlierThan = (s: number, i: number): TDraftItem[] => [
    ...sections.slice(0, s).flatMap((x) => x.items),
    ...(sections[s]?.items.slice(0, i) ?? []),
  ];
  let number = 0;
  return (
    <div className="flex flex-col gap-4">
      {errors.get('sections') ? <p className="text-sm text-danger">{errors.get('sections')}</p> : null}
      {sections.map((section, s) => {
        const sectionName = section.title.trim() || `Section ${s + 1}`;
        const move = (i: number, by: -1 | 1) => {
          const items = [...section.items];
          const [moved] = items.splice(i, 1);
          if (moved) items.splice(i + by, 0, moved);
          setSection(s, { ...section, items });
        };
        return (
          <section
            key={section.id}
            aria-label={sectionName}
            className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-4"
          >
            <div className="flex items-end gap-2">
              <Field label="Section title" className="flex-1" error={errors.get(`sections.${s}.title`)}>
                <Input
                  value={section.title}
                  placeholder="Optional, e.g. Income"
                  maxLength={200}
                  onChange={(e) => setSection(s, { ...section, title: e.target.value })}
                />
              </Field>
              <IconButton
                aria-label={`Remove ${sectionName}`}
                disabled={sections.length === 1}
                onClick={() => onChange(sections.filter((_, i) => i !== s))}
              >
                <Trash2 />
              </IconButton>
            </div>
            {errors.get(`sections.${s}.items`) ? (
              <p className="text-sm text-danger">{errors.get(`sections.${s}.items`)}</p>
            ) : null}
            <ol className="flex flex-col gap-3">
              {section.items.map((item, i) => {
                number += 1;
                return (
                  <ItemEditor
                    key={item.key}
                    item={item}
                    number={number}
                    earlier={earlierThan(s, i)}
                    errors={(field) => errors.get(`sections.${s}.items.${i}.${field}`)}
                    first={i === 0}
                    last={i === section.items.length - 1}
                    onMove={(by) => move(i, by)}
                    onRemove={() =>
                      setSection(s, { ...section, items: section.items.filter((_, j) => j !== i) })
                    }
                    onChange={(next) =>
                      setSection(s, {
                        ...section,
                        items: section.items.map((old, j) => (j === i ? next : old)),
                      })
                    }
                  />
                );
              })}
            </ol>
            <div>
              <Button
                variant="outline"
                size="sm"
                onClick={() => setSection(s, { ...section, items: [...section.items, blankItem(sections)] })}
              >
                <Plus aria-hidden /> Add item{sections.length > 1 ? ` to ${sectionName}` : ''}
              </Button>
            </div>
          </section>
        );
      })}
      <div>
        <Button
          variant="outline"
          onClick={() =>
            onChange([...sections, { id: sectionId(), title: '', items: [blankItem(sections)] }])
          }
        >
          <Plus aria-hidden /> Add section
        </Button>
      </div>
    </div>
  );
}
