import { CircleAlert } from 'lucide-react';
import { cloneElement, isValidElement, type ReactElement, type ReactNode, useId } from 'react';
import { cn } from './cn';

type ControlProps = {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
};

export type FieldProps = {
  label: ReactNode;
  /** One control: Input, Textarea, Select, DatePicker, or anything taking id and aria-* props. */
  children: ReactElement<ControlProps>;
  /** Help shown under the control while there is no error. */
  hint?: ReactNode;
  /** A message a person can act on, e.g. `errors.email?.message` from react-hook-form + zod. */
  error?: string;
  required?: boolean;
  className?: string;
};

/**
 * Label, control, hint and error in one column. The control is cloned with an id (unless it has one),
 * `aria-describedby` pointing at the hint and error, and `aria-invalid` while there is an error, so
 * `<Field label="Email" error={errors.email?.message}><Input {...register('email')} /></Field>` is
 * accessible with no extra wiring.
 */
export function Field({ label, children, hint, error, required, className }: FieldProps) {
  const autoId = useId();
  const child = isValidElement(children) ? children : null;
  const id = child?.props.id ?? `${autoId}-control`;
  const hintId = `${autoId}-hint`;
  const errorId = `${autoId}-error`;
  const describedBy =
    [child?.props['aria-describedby'], error ? errorId : null, hint ? hintId : null]
      .filter(Boolean)
      .join(' ') || undefined;

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-danger">
            *
          </span>
        ) : null}
      </label>
      {child
        ? cloneElement(child, {
            id,
            'aria-describedby': describedBy,
            'aria-invalid': error ? true : child.props['aria-invalid'],
            'aria-required': required || child.props['aria-required'],
          })
        : children}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-fg">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="flex items-center gap-1 text-xs text-danger">
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
