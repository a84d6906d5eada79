import { CircleAlert } from 'lucide-react';
import {
  type AriaAttributes,
  cloneElement,
  createContext,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
  useId,
} from 'react';
import { cn } from './cn';

export type FieldControlProps = {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: AriaAttributes['aria-invalid'];
  'aria-required'?: AriaAttributes['aria-required'];
};

type FieldContextValue = { id: string; describedBy?: string; invalid: boolean; required: boolean };

const FieldContext = createContext<FieldContextValue | null>(null);

function joinIds(...ids: (string | null | undefined)[]): string | undefined {
  const unique = [...new Set(ids.flatMap((i) => (i ? i.split(' ') : [])))];
  return unique.length ? unique.join(' ') : undefined;
}

/**
 * Merges the enclosing Field's id and aria-* into a control's props. Every control of this design system
 * calls it, which is how a control nested deeper than Field's child (inside react-hook-form's Controller)
 * still gets its label, description and invalid state. Use it in any custom control meant for a Field.
 */
export function useFieldControl<P extends FieldControlProps>(props: P): P {
  const field = useContext(FieldContext);
  if (!field) return props;
  return {
    ...props,
    id: props.id ?? field.id,
    'aria-describedby': joinIds(props['aria-describedby'], field.describedBy),
    'aria-invalid': field.invalid ? true : props['aria-invalid'],
    'aria-required': field.required || props['aria-required'] || undefined,
  };
}

export type FieldProps = {
  label: ReactNode;
  /** One control: Input, Textarea, Select, DatePicker, Checkbox, a native element, or a Controller. */
  children: ReactElement<FieldControlProps>;
  /** Help shown under the control. */
  hint?: ReactNode;
  /** A message a person can act on, e.g. `errors.email?.message` from react-hook-form + zod. */
  error?: string;
  required?: boolean;
  /** The control's id; defaults to the child's own id, else a generated one. */
  id?: string;
  className?: string;
};

/**
 * Label, control, hint and error in one column. The control gets an id matching the label,
 * `aria-describedby` pointing at the error and hint, and `aria-invalid` while there is an error, so
 * `<Field label="Email" error={errors.email?.message}><Input {...register('email')} /></Field>` needs no
 * extra wiring. The design system's controls read this from context; a native element is cloned.
 */
export function Field({ label, children, hint, error, required = false, id, className }: FieldProps) {
  const autoId = useId();
  const child = isValidElement(children) ? children : null;
  const controlId = id ?? child?.props.id ?? `${autoId}-control`;
  const hintId = `${autoId}-hint`;
  const errorId = `${autoId}-error`;
  const context: FieldContextValue = {
    id: controlId,
    describedBy: joinIds(error ? errorId : null, hint ? hintId : null),
    invalid: Boolean(error),
    required,
  };
  // Components read the context; only a plain DOM element needs the props put on it.
  const control =
    child && typeof child.type === 'string'
      ? cloneElement(child, {
          id: controlId,
          'aria-describedby': joinIds(child.props['aria-describedby'], context.describedBy),
          'aria-invalid': error ? true : child.props['aria-invalid'],
          'aria-required': required || child.props['aria-required'] || undefined,
        })
      : children;

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={controlId} className="text-sm font-medium text-fg">
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-danger">
            *
          </span>
        ) : null}
      </label>
      <FieldContext.Provider value={context}>{control}</FieldContext.Provider>
      {error ? (
        <p id={errorId} className="flex items-center gap-1 text-xs text-danger">
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-fg">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
