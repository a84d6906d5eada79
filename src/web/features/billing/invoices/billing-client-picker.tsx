import { useQuery } from '@tanstack/react-query';
import { Input } from '@web/ui';
import { useEffect, useId, useState } from 'react';
import { trpc } from '../../../lib/trpc';

const label = (c: { name: string; code: string }) => `${c.name} (${c.code})`;

/**
 * Picks one client to bill by typing a few letters: the server answers the best matches among
 * the clients the member may see, and the browser's own suggestion list offers them. `from` names
 * the procedure that answers: the invoices' (billing.view) or the payments' (`billing.payments`).
 */
export function BillingClientPicker({
  value,
  onChange,
  placeholder = 'Type a client name or code',
  className,
  autoFocus,
  from = 'invoices',
  ...rest
}: {
  from?: 'invoices' | 'payments';
  value: string | null | undefined;
  onChange: (clientId: string | null) => void;
  placeholder?: string;
  className?: string;
  autoFocus?: boolean;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}) {
  const listId = useId();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const options = trpc.billing[from].clientOptions;
  const current = useQuery({
    ...options.queryOptions({ clientId: value ?? undefined }),
    enabled: !!value,
  });
  const matches = useQuery(options.queryOptions({ search: term || undefined }));
  const chosen = value ? current.data?.find((c) => c.id === value) : undefined;
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
        list={listId}
        className={className}
        placeholder={placeholder}
        value={text}
        autoComplete="off"
        autoFocus={autoFocus}
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
