import { Checkbox } from '@web/ui';
import type { ReactNode } from 'react';

export type TRecipientOption = { id: string; name: string; email: string };

/** "Send to": the client's portal users a request goes to, as the send and draft dialogs choose them. */
export function RecipientsFieldset({
  people,
  chosen,
  onChange,
  error,
  empty,
}: {
  people: readonly TRecipientOption[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string;
  /** Shown when the client has nobody in the portal. */
  empty?: ReactNode;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Send to</legend>
      {people.length === 0 ? empty : null}
      {people.map((p) => (
        <Checkbox
          key={p.id}
          label={`${p.name} (${p.email})`}
          checked={chosen.includes(p.id)}
          onCheckedChange={(v) =>
            onChange(v === true ? [...chosen, p.id] : chosen.filter((id) => id !== p.id))
          }
        />
      ))}
      {error ? <p className="text-sm text-danger">{error}</p> : null}
    </fieldset>
  );
}
