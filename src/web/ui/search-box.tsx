import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Input } from './input';

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
  const sent = useRef(value);
  // A value changed from outside (a "Clear filters" button, back navigation) replaces the text; the
  // echo of what this box itself sent does not, or it would eat what was typed since.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== sent.current) setText(value ?? '');
  }
  useEffect(() => {
    const next = text.trim() || undefined;
    if (next === value) return;
    const handle = setTimeout(() => {
      sent.current = next;
      onSearch(next);
    }, 300);
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
