import { useQuery } from '@tanstack/react-query';
import { cn, Input } from '@web/ui';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { trpc } from '../../lib/trpc';

export type TClientChoice = { id: string; name: string } | null;

/**
 * Whose credential this is: firm-wide, or a client found by typing (a firm may have tens of
 * thousands, so the server searches). A combobox: arrows move, Enter chooses, Escape closes.
 */
export function ClientPicker({
  value,
  onChange,
  disabled,
  ...rest
}: {
  value: TClientChoice;
  onChange: (value: TClientChoice) => void;
  disabled?: boolean;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(value?.name ?? '');
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  useEffect(() => setText(value?.name ?? ''), [value]);
  useEffect(() => {
    const handle = setTimeout(() => setTerm(text.trim()), 200);
    return () => clearTimeout(handle);
  }, [text]);
  const typed = term && term !== value?.name ? term : undefined;
  const found = useQuery({
    ...trpc.vault.clients.queryOptions(typed ? { search: typed } : {}),
    enabled: open,
  });
  const options: TClientChoice[] = [null, ...(found.data ?? [])];
  const choose = (choice: TClientChoice) => {
    onChange(choice);
    setText(choice?.name ?? '');
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, options.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      choose(options[active] ?? null);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setText(value?.name ?? '');
    }
  };
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="relative">
      <Input
        {...rest}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? optionId(active) : undefined}
        autoComplete="off"
        placeholder="Firm-wide: type to find a client"
        disabled={disabled}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setText(value?.name ?? '');
        }}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Clients"
          className="absolute z-50 mt-1 max-h-60 w-full overflow-y-auto rounded-md border border-border bg-surface p-1 shadow-lg"
        >
          {options.map((option, i) => (
            <div
              key={option?.id ?? 'firm'}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={(option?.id ?? null) === (value?.id ?? null)}
              className={cn(
                'cursor-default rounded-sm px-2 py-1 text-sm',
                i === active ? 'bg-muted' : null,
                option ? null : 'text-muted-fg',
              )}
              // Before the input's blur, or the list is gone before the click lands.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(option);
              }}
              onMouseEnter={() => setActive(i)}
            >
              {option ? option.name : 'Firm-wide (no client)'}
            </div>
          ))}
          {found.isFetching && !found.data ? (
            <div className="px-2 py-1 text-sm text-muted-fg">Searching…</div>
          ) : null}
          {found.data && found.data.length === 0 && typed ? (
            <div className="px-2 py-1 text-sm text-muted-fg">No client matches “{typed}”</div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
