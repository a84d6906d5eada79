import {
  DEFAULT_GENERATOR_OPTIONS,
  GENERATOR_MAX_LENGTH,
  GENERATOR_MIN_LENGTH,
  generatePassword,
  PASSWORD_SET_LABELS,
  type TGeneratorOptions,
  type TPasswordSet,
} from '@domain/password-generator';
import { Button, Checkbox, Field, IconButton, Input } from '@web/ui';
import { Eye, EyeOff, Settings2, WandSparkles } from 'lucide-react';
import { type ComponentProps, useId, useState } from 'react';

const SETS = Object.keys(PASSWORD_SET_LABELS) as TPasswordSet[];

type TInputProps = ComponentProps<typeof Input>;

/** The box and its show/hide toggle; it takes the enclosing Field's id and aria-* through Input. */
function PasswordInput({
  shown,
  onToggle,
  ...props
}: TInputProps & { shown: boolean; onToggle: () => void }) {
  return (
    <div className="flex gap-1.5">
      <Input
        {...props}
        type={shown ? 'text' : 'password'}
        autoComplete="new-password"
        spellCheck={false}
        className="font-mono"
      />
      <IconButton
        type="button"
        variant="outline"
        aria-label={shown ? 'Hide password' : 'Show password'}
        aria-pressed={shown}
        onClick={onToggle}
      >
        {shown ? <EyeOff /> : <Eye />}
      </IconButton>
    </div>
  );
}

/**
 * The password box of the entry form: hidden by default with a show/hide toggle, and a generator
 * (length and character sets) that fills it and shows what it made. The generator's own controls
 * sit outside the Field, so they keep their own labels.
 */
export function PasswordField({
  onGenerate,
  label,
  error,
  hint,
  required,
  ...inputProps
}: TInputProps & {
  onGenerate: (password: string) => void;
  label: string;
  error?: string;
  hint?: string;
}) {
  const [shown, setShown] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [options, setOptions] = useState<TGeneratorOptions>(DEFAULT_GENERATOR_OPTIONS);
  const [lengthText, setLengthText] = useState(String(options.length));
  const optionsId = useId();
  const anySet = SETS.some((s) => options[s]);
  const generate = (next = options) => {
    onGenerate(generatePassword(next));
    setShown(true);
  };
  const change = (patch: Partial<TGeneratorOptions>) => {
    const next = { ...options, ...patch };
    setOptions(next);
    if (SETS.some((s) => next[s])) generate(next);
  };
  return (
    <div className="flex flex-col gap-2">
      <Field label={label} error={error} hint={hint} required={required}>
        <PasswordInput {...inputProps} shown={shown} onToggle={() => setShown((s) => !s)} />
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" size="sm" disabled={!anySet} onClick={() => generate()}>
          <WandSparkles aria-hidden />
          Generate password
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          aria-expanded={optionsOpen}
          aria-controls={optionsId}
          onClick={() => setOptionsOpen((o) => !o)}
        >
          <Settings2 aria-hidden />
          Generator options
        </Button>
      </div>
      {optionsOpen ? (
        <fieldset id={optionsId} className="grid gap-2 rounded-md border border-border p-3 sm:grid-cols-2">
          <legend className="px-1 text-xs font-medium text-muted-fg">Generator</legend>
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            Length
            <input
              type="range"
              aria-label="Length"
              min={GENERATOR_MIN_LENGTH}
              max={64}
              value={Math.min(options.length, 64)}
              onChange={(e) => {
                setLengthText(e.target.value);
                change({ length: Number(e.target.value) });
              }}
              className="flex-1 accent-(--color-primary)"
            />
            <Input
              type="number"
              aria-label="Length in characters"
              className="w-20"
              min={GENERATOR_MIN_LENGTH}
              max={GENERATOR_MAX_LENGTH}
              value={lengthText}
              onChange={(e) => {
                // Typing "16" passes through "1": only a length in range is applied.
                setLengthText(e.target.value);
                const length = Number(e.target.value);
                if (
                  Number.isInteger(length) &&
                  length >= GENERATOR_MIN_LENGTH &&
                  length <= GENERATOR_MAX_LENGTH
                )
                  change({ length });
              }}
            />
          </label>
          {SETS.map((set) => (
            <Checkbox
              key={set}
              label={PASSWORD_SET_LABELS[set]}
              checked={options[set]}
              onCheckedChange={(on) => change({ [set]: on === true })}
            />
          ))}
          {anySet ? null : (
            <p role="alert" className="text-xs text-danger sm:col-span-2">
              Choose at least one kind of character
            </p>
          )}
        </fieldset>
      ) : null}
    </div>
  );
}
