import { Check, Minus } from 'lucide-react';
import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from './cn';
import { useFieldControl } from './field';

export type CheckboxProps = ComponentProps<typeof CheckboxPrimitive.Root> & {
  /** Visible label to the right; without it, pass `aria-label`. */
  label?: ReactNode;
};

/** A Radix checkbox; `checked="indeterminate"` shows a dash (used by a table's select-all). */
export function Checkbox({ className, label, ...rest }: CheckboxProps) {
  const { id, ...props } = useFieldControl(rest);
  const autoId = useId();
  const boxId = id ?? autoId;
  const box = (
    <CheckboxPrimitive.Root
      id={boxId}
      className={cn(
        'peer grid size-4 shrink-0 place-items-center rounded-[4px] border border-muted-fg/45 bg-surface shadow-xs',
        'transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-fg',
        'data-[state=indeterminate]:border-primary data-[state=indeterminate]:bg-primary data-[state=indeterminate]:text-primary-fg',
        'disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-danger',
        className,
      )}
      {...props}
    >
      <CheckboxPrimitive.Indicator>
        {props.checked === 'indeterminate' ? (
          <Minus aria-hidden="true" className="size-3" strokeWidth={3} />
        ) : (
          <Check aria-hidden="true" className="size-3" strokeWidth={3} />
        )}
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
  if (!label) return box;
  return (
    <div className="flex items-center gap-2">
      {box}
      <label htmlFor={boxId} className="text-sm text-fg peer-disabled:opacity-50">
        {label}
      </label>
    </div>
  );
}
