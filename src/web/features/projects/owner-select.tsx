import { Select } from '@web/ui';
import type { ControllerRenderProps } from 'react-hook-form';

const NONE = 'none';

/** A project's owner: one of the firm's members, or nobody (stored as null). */
export function OwnerSelect({
  field,
  members,
}: {
  field: Pick<ControllerRenderProps, 'name' | 'onBlur'> & {
    value?: string | null;
    onChange: (value: string | null) => void;
  };
  members: { id: string; name: string }[];
}) {
  return (
    <Select
      name={field.name}
      onBlur={field.onBlur}
      value={field.value ?? NONE}
      onValueChange={(v) => field.onChange(v === NONE ? null : v)}
      options={[{ value: NONE, label: 'No owner' }, ...members.map((m) => ({ value: m.id, label: m.name }))]}
    />
  );
}
