import type { TOrgSettings, TOrgSettingsInput } from '@domain/settings';
import { Field, Select, type SelectOption } from '@web/ui';
import { Controller, type UseFormReturn } from 'react-hook-form';

type TForm = UseFormReturn<TOrgSettingsInput, unknown, TOrgSettings>;

/** A Select bound to one of the profile form's fields; `numeric` for a number held as a string option. */
export function SelectField({
  form,
  name,
  label,
  error,
  options,
  numeric = false,
}: {
  form: TForm;
  name: 'timeZone' | 'currency' | 'fiscalYearStartMonth' | 'country';
  label: string;
  error?: string;
  options: SelectOption[];
  numeric?: boolean;
}) {
  return (
    <Field label={label} error={error}>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Select
            name={field.name}
            onBlur={field.onBlur}
            ref={field.ref}
            disabled={field.disabled}
            value={field.value === '' || field.value == null ? undefined : String(field.value)}
            onValueChange={(v) => field.onChange(numeric ? Number(v) : v)}
            options={options}
          />
        )}
      />
    </Field>
  );
}
