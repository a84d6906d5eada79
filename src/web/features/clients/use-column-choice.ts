import { useState } from 'react';

const COLUMNS_KEY = 'practice.clients.columns';
export const OPTIONAL_COLUMNS = [
  { id: 'type', label: 'Type' },
  { id: 'group', label: 'Group' },
  { id: 'email', label: 'Email' },
  { id: 'phone', label: 'Phone' },
  { id: 'city', label: 'City' },
  { id: 'tags', label: 'Tags' },
  { id: 'status', label: 'Status' },
  { id: 'createdAt', label: 'Added' },
] as const;
export type TOptionalColumn = (typeof OPTIONAL_COLUMNS)[number]['id'];
const DEFAULT_COLUMNS: TOptionalColumn[] = ['type', 'group', 'email', 'phone', 'tags', 'status'];

/** The columns the member chose, kept in this browser. */
export function useColumnChoice() {
  const [visible, setVisible] = useState<TOptionalColumn[]>(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? 'null');
      if (Array.isArray(stored)) {
        return OPTIONAL_COLUMNS.map((c) => c.id).filter((id) => stored.includes(id));
      }
    } catch {
      // A damaged entry falls back to the defaults.
    }
    return DEFAULT_COLUMNS;
  });
  const toggle = (id: TOptionalColumn, on: boolean) => {
    const next = OPTIONAL_COLUMNS.map((c) => c.id).filter((c) => (c === id ? on : visible.includes(c)));
    setVisible(next);
    localStorage.setItem(COLUMNS_KEY, JSON.stringify(next));
  };
  return { visible, toggle };
}
