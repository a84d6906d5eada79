import { Checkbox, cn } from '@web/ui';
import type { ReactNode } from 'react';

// A table of WIP items with a checkbox each, in groups (time by service, say), where a group's box
// picks all of its items. Not a list screen: a client's WIP is one page of everything unbilled.

export type TWipColumn<T> = {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  className?: string;
};
export type TWipGroup<T> = { key: string; label?: ReactNode; rows: T[] };

type TProps<T> = {
  label: string;
  columns: TWipColumn<T>[];
  groups: TWipGroup<T>[];
  keyOf: (row: T) => string;
  rowLabel: (row: T) => string;
  /** Null: rows are shown, not chosen (time a fixed fee covers). */
  selection: { selected: ReadonlySet<string>; toggle: (keys: string[], on: boolean) => void } | null;
};

const cell = 'px-3 py-2 align-middle whitespace-nowrap';

function stateOf(keys: string[], selected: ReadonlySet<string>) {
  const n = keys.filter((k) => selected.has(k)).length;
  return n === 0 ? false : n === keys.length ? true : ('indeterminate' as const);
}

export function WipTable<T>({ label, columns, groups, keyOf, rowLabel, selection }: TProps<T>) {
  const all = groups.flatMap((g) => g.rows.map(keyOf));
  const span = columns.length + (selection ? 1 : 0);
  return (
    <div className="overflow-x-auto">
      <table aria-label={label} className="w-full border-collapse text-sm">
        <thead className="bg-muted/50">
          <tr className="border-b border-border">
            {selection ? (
              <th scope="col" className="w-10 px-3 py-2">
                <Checkbox
                  aria-label={`Select all: ${label}`}
                  checked={stateOf(all, selection.selected)}
                  onCheckedChange={(on) => selection.toggle(all, on === true)}
                />
              </th>
            ) : null}
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                className={cn(
                  'h-9 px-3 text-left text-xs font-medium whitespace-nowrap text-muted-fg',
                  c.className,
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        {groups.map((group) => {
          const keys = group.rows.map(keyOf);
          return (
            <tbody key={group.key} className="border-b border-border last:border-b-0">
              {group.label ? (
                <tr className="bg-muted/30">
                  {selection ? (
                    <td className={cell}>
                      <Checkbox
                        aria-label={`Select all of ${typeof group.label === 'string' ? group.label : group.key}`}
                        checked={stateOf(keys, selection.selected)}
                        onCheckedChange={(on) => selection.toggle(keys, on === true)}
                      />
                    </td>
                  ) : null}
                  <th
                    scope="rowgroup"
                    colSpan={span - (selection ? 1 : 0)}
                    className={cn(cell, 'text-left font-medium')}
                  >
                    {group.label}
                  </th>
                </tr>
              ) : null}
              {group.rows.map((row) => {
                const key = keyOf(row);
                const on = selection?.selected.has(key) ?? false;
                return (
                  <tr key={key} className={cn('border-t border-border', on && 'bg-primary/5')}>
                    {selection ? (
                      <td className={cell}>
                        <Checkbox
                          aria-label={`Select ${rowLabel(row)}`}
                          checked={on}
                          onCheckedChange={(next) => selection.toggle([key], next === true)}
                        />
                      </td>
                    ) : null}
                    {columns.map((c) => (
                      <td key={c.id} className={cn(cell, c.className)}>
                        {c.cell(row)}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
