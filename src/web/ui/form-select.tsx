import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { Select, type SelectOption, type SelectProps } from './select';

// Radix refuses an empty value, so "no project" travels as this sentinel inside the Select and
// as null in the form, which is what the schemas take.
const NONE = 'none';

export type FormSelectProps<T extends FieldValues, TOut> = Omit<
  SelectProps,
  'value' | 'defaultValue' | 'onValueChange' | 'name' | 'onBlur' | 'ref' | 'options'
> & {
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form types a control's context as any
  control: Control<T, any, TOut>;
  name: FieldPath<T>;
  options: SelectOption[];
  /** Offers "nothing" first, under this label; choosing it sets the field to null. */
  none?: string;
  /** After the field changes: a choice that clears another (a client's projects). */
  onChosen?: (value: string | null) => void;
};

/** A form field's Select, bound through react-hook-form: `<FormSelect control={form.control} name="projectId" none="No project" options={…} />`. */
export function FormSelect<T extends FieldValues, TOut>({
  control,
  name,
  options,
  none,
  onChosen,
  ...select
}: FormSelectProps<T, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          {...select}
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          value={none === undefined ? field.value : (field.value ?? NONE)}
          onValueChange={(v) => {
            const next = none !== undefined && v === NONE ? null : v;
            field.onChange(next);
            onChosen?.(next);
          }}
          options={none === undefined ? options : [{ value: NONE, label: none }, ...options]}
        />
      )}
    />
  );
}
