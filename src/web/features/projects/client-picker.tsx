import { useQuery } from '@tanstack/react-query';
import { Input } from '@web/ui';
import { useEffect, useId, useState } from 'react';
import { trpc } from '../../lib/trpc';

const label = (c: { name: string; code: string }) => `${c.name} (${c.code})`;

/**
 * Picks one client by typing a few letters: a firm may have tens of thousands, so the server
 * answers the 20 best matches and the browser's own suggestion list shows them.
 */
export function ClientPicker({
  value,
  onChange,
  placeholder = 'Type a client name or code',
  className,
  'aria-label': ariaLabel,
  from = 'projects',
  ...rest
}: {
  /** Whose procedure answers: the projects' (projects.view) or the requests' (requests.view). */
  from?: 'projects' | 'requests';
  value: string | null | undefined;
  onChange: (clientId: string | null) => void;
  placeholder?: string;
  className?: string;
  'aria-label'?: string;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}) {
  const listId = useId();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const options = trpc[from].clients;
  const current = useQuery({
    ...options.queryOptions({ clientId: value ?? undefined }),
    enabled: !!value,
  });
  const matches = useQuery(options.queryOptions({ search: term || undefined }));
  const chosen = value ? current.data?.[0] : undefined;
  useEffect(() => {
    if (chosen) setText(label(chosen));
    else if (!value) setText('');
  }, [chosen, value]);
  useEffect(() => {
    const handle = setTimeout(() => setTerm(text.replace(/\s*\([^)]*\)\s*$/, '').trim()), 250);
    return () => clearTimeout(handle);
  }, [text]);
  return (
    <>
      <Input
        {...rest}
        type="search"
        aria-label={ariaLabel}
        list={listId}
        className={className}
        placeholder={placeholder}
        value={text}
        autoComplete="off"
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          const hit = [...(matches.data ?? []), ...(current.data ?? [])].find((c) => label(c) === next);
          if (hit) onChange(hit.id);
          else if (!next.trim()) onChange(null);
        }}
      />
      <datalist id={listId}>
        {(matches.data ?? []).map((c) => (
          <option key={c.id} value={label(c)} />
        ))}
      </datalist>
    </>
  );
}
