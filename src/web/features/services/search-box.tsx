import { Input } from '@web/ui';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';

/** A search box that reports its text once typing pauses (for a URL-driven list). */
export function SearchBox({
  value,
  onSearch,
  label,
  placeholder,
}: {
  value: string | undefined;
  onSearch: (value: string | undefined) => void;
  label: string;
  placeholder: string;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => {
    const next = text.trim() || undefined;
    if (next === value) return;
    const handle = setTimeout(() => onSearch(next), 300);
    return () => clearTimeout(handle);
  }, [text, value, onSearch]);
  return (
    <div className="relative w-full sm:w-72">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-fg"
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        className="pl-8"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </div>
  );
}
