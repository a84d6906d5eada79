import { MAX_TAX_IDS, type TOrgSettings, type TOrgSettingsInput, taxIdKinds } from '@domain/settings';
import { Button, Field, IconButton, Input, Select } from '@web/ui';
import { Plus, Trash2 } from 'lucide-react';
import { Controller, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';

type TForm = UseFormReturn<TOrgSettingsInput, unknown, TOrgSettings>;

/** A repeatable { kind, value } list; the kinds offered depend on the country (free text elsewhere). */
export function TaxIdsField({ form, canEdit }: { form: TForm; canEdit: boolean }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'taxIds' });
  const country = useWatch({ control: form.control, name: 'country' });
  const kinds = taxIdKinds(country);
  const errors = form.formState.errors.taxIds;

  return (
    <div className="flex flex-col gap-3">
      {fields.length === 0 ? <p className="text-sm text-muted-fg">No tax identifiers yet.</p> : null}
      <ul className="flex flex-col gap-3">
        {fields.map((row, index) => (
          <li key={row.id} className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)_auto] items-start gap-2">
            <Field label={`Kind ${index + 1}`} error={errors?.[index]?.kind?.message}>
              {kinds ? (
                <Controller
                  control={form.control}
                  name={`taxIds.${index}.kind`}
                  render={({ field }) => (
                    <Select
                      name={field.name}
                      ref={field.ref}
                      onBlur={field.onBlur}
                      disabled={field.disabled}
                      value={field.value || undefined}
                      onValueChange={field.onChange}
                      placeholder="Choose…"
                      options={[
                        ...kinds,
                        ...(field.value && !kinds.includes(field.value) ? [field.value] : []),
                      ].map((k) => ({ value: k, label: k }))}
                    />
                  )}
                />
              ) : (
                <Input placeholder="e.g. TIN" {...form.register(`taxIds.${index}.kind`)} />
              )}
            </Field>
            <Field label={`Identifier ${index + 1}`} error={errors?.[index]?.value?.message}>
              <Input
                autoCapitalize="characters"
                spellCheck={false}
                {...form.register(`taxIds.${index}.value`)}
              />
            </Field>
            {canEdit ? (
              <IconButton
                aria-label={`Remove tax identifier ${index + 1}`}
                className="mt-6"
                onClick={() => remove(index)}
              >
                <Trash2 aria-hidden />
              </IconButton>
            ) : null}
          </li>
        ))}
      </ul>
      {errors?.message ? <p className="text-xs text-danger">{errors.message}</p> : null}
      {canEdit ? (
        <div>
          <Button
            variant="outline"
            disabled={fields.length >= MAX_TAX_IDS}
            onClick={() => append({ kind: kinds?.[0] ?? '', value: '' }, { shouldFocus: !kinds })}
          >
            <Plus aria-hidden />
            Add tax identifier
          </Button>
        </div>
      ) : null}
    </div>
  );
}
