import { useQuery } from '@tanstack/react-query';
import { Input, Select } from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';

const NONE = 'none';

/** A search box over the clients this member may see, and the matches to choose from. */
export function ClientPicker({
  value,
  initial,
  onChange,
}: {
  value: string | null;
  initial: { id: string; name: string } | null;
  onChange: (id: string | null) => void;
}) {
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(initial);
  useEffect(() => {
    const handle = setTimeout(() => setTerm(text.trim()), 250);
    return () => clearTimeout(handle);
  }, [text]);
  const options = useQuery(trpc.reminders.clientOptions.queryOptions({ search: term || undefined }));
  const list = options.data ?? [];
  const withChosen = chosen && !list.some((c) => c.id === chosen.id) ? [chosen, ...list] : list;
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <Input
        type="search"
        aria-label="Search clients"
        placeholder="Search clients…"
        className="sm:w-56"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Select
        aria-label="Client"
        className="flex-1"
        value={value ?? NONE}
        placeholder="Choose a client"
        onValueChange={(v) => {
          const c = withChosen.find((x) => x.id === v) ?? null;
          setChosen(c);
          onChange(v === NONE ? null : v);
        }}
        options={[
          { value: NONE, label: options.isPending ? 'Loading…' : 'No client' },
          ...withChosen.map((c) => ({ value: c.id, label: c.name })),
        ]}
      />
    </div>
  );
}
