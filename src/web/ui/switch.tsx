import { Switch as SwitchPrimitive } from 'radix-ui';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from './cn';
import { useFieldControl } from './field';

export type SwitchProps = ComponentProps<typeof SwitchPrimitive.Root> & {
  /** Visible label to the right; without it, pass `aria-label`. */
  label?: ReactNode;
};

/** An on/off setting that takes effect at once (a checkbox is for choices submitted with a form). */
export function Switch({ className, label, ...rest }: SwitchProps) {
  const { id, ...props } = useFieldControl(rest);
  const autoId = useId();
  const switchId = id ?? autoId;
  const control = (
    <SwitchPrimitive.Root
      id={switchId}
      className={cn(
        'peer inline-flex h-5 w-9 shrink-0 items-center rounded-full border border-transparent transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'data-[state=checked]:bg-primary data-[state=unchecked]:bg-border dark:data-[state=unchecked]:bg-muted',
        'disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    >
      <SwitchPrimitive.Thumb
        className={cn(
          'pointer-events-none block size-4 rounded-full bg-white shadow-sm ring-0 transition-transform',
          'data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0.5',
        )}
      />
    </SwitchPrimitive.Root>
  );
  if (!label) return control;
  return (
    <div className="flex items-center gap-2">
      {control}
      <label htmlFor={switchId} className="text-sm text-fg peer-disabled:opacity-50">
        {label}
      </label>
    </div>
  );
}
