import { CONDITION_KINDS, ITEM_KIND_LABELS, ITEM_KINDS, type TItemKind } from '@domain/requests/constants';
import { YES_NO } from '@domain/requests/items';
import { Checkbox, Field, IconButton, Input, Select, Textarea } from '@web/ui';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import type { TDraftItem } from './sections-draft';

const KIND_OPTIONS = ITEM_KINDS.map((k) => ({ value: k, label: ITEM_KIND_LABELS[k] }));
const ALWAYS = '__always';
const YES_NO_LABELS: Record<string, string> = { yes: 'Yes', no: 'No' };

/**
 * One item of a request or template: what it asks, of what kind, required or not, and the earlier
 * yes/no or choice answer it is shown for. `earlier` are the items above it, the only ones a
 * condition may name (the server refuses anything else).
 */
export function ItemEditor({
  item,
  number,
  earlier,
  errors,
  onChange,
  onMove,
  onRemove,
  first,
  last,
}: {
  item: TDraftItem;
  number: number;
  earlier: TDraftItem[];
  errors: (field: string) => string | undefined;
  onChange: (next: TDraftItem) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  first: boolean;
  last: boolean;
}) {
  const set = (patch: Partial<TDraftItem>) => onChange({ ...item, ...patch });
  const conditional = earlier.filter(
    (e) => (CONDITION_KINDS as readonly TItemKind[]).includes(e.kind) && e.label.trim(),
  );
  const on = item.condition ? earlier.find((e) => e.key === item.condition?.key) : undefined;
  const values = on ? (on.kind === 'yes_no' ? [...YES_NO] : on.options.filter(Boolean)) : [];
  const name = item.label.trim() || `Item ${number}`;
  return (
    <li className="flex flex-col gap-3 rounded-md border border-border p-3" aria-label={name}>
      <div className="flex items-start gap-2">
        <span className="mt-2 w-6 shrink-0 text-xs text-muted-fg tabular-nums">{number}.</span>
        <div className="grid min-w-0 flex-1 gap-3 sm:grid-cols-[1fr_12rem]">
          <Field label="Question" required error={errors('label')}>
            <Input value={item.label} onChange={(e) => set({ label: e.target.value })} maxLength={300} />
          </Field>
          <Field label="Kind" error={errors('kind')}>
            <Select
              options={KIND_OPTIONS}
              value={item.kind}
              onValueChange={(v) => set({ kind: v as TItemKind })}
            />
          </Field>
        </div>
        <div className="flex shrink-0 gap-0.5 pt-6">
          <IconButton aria-label={`Move “${name}” up`} size="sm" disabled={first} onClick={() => onMove(-1)}>
            <ArrowUp />
          </IconButton>
          <IconButton aria-label={`Move “${name}” down`} size="sm" disabled={last} onClick={() => onMove(1)}>
            <ArrowDown />
          </IconButton>
          <IconButton aria-label={`Remove “${name}”`} size="sm" onClick={onRemove}>
            <Trash2 />
          </IconButton>
        </div>
      </div>
      <div className="grid gap-3 pl-8 sm:grid-cols-2">
        <Field label="Hint" hint="What to send, or an example" error={errors('hint')}>
          <Input value={item.hint} onChange={(e) => set({ hint: e.target.value })} maxLength={1000} />
        </Field>
        {item.kind === 'choice' ? (
          <Field label="Choices" hint="One a line" error={errors('options')}>
            <Textarea
              rows={3}
              value={item.options.join('\n')}
              onChange={(e) => set({ options: e.target.value.split('\n') })}
            />
          </Field>
        ) : null}
        <div className="flex flex-wrap items-end gap-3 sm:col-span-2">
          <Field label="Shown" className="w-56" error={errors('condition.key')}>
            <Select
              options={[
                { value: ALWAYS, label: 'Always' },
                ...conditional.map((e) => ({ value: e.key, label: `When “${e.label}” is…` })),
              ]}
              value={item.condition?.key ?? ALWAYS}
              onValueChange={(v) => set({ condition: v === ALWAYS ? null : { key: v, equals: '' } })}
            />
          </Field>
          {item.condition ? (
            <Field label="Answer" className="w-44" error={errors('condition.equals')}>
              <Select
                placeholder="Choose an answer"
                options={values.map((v) => ({ value: v, label: YES_NO_LABELS[v] ?? v }))}
                value={item.condition.equals || undefined}
                onValueChange={(v) => set({ condition: { key: item.condition?.key ?? '', equals: v } })}
              />
            </Field>
          ) : null}
          <div className="mb-2">
            <Checkbox
              label="Required"
              checked={item.required}
              onCheckedChange={(v) => set({ required: v === true })}
            />
          </div>
        </div>
      </div>
    </li>
  );
}
