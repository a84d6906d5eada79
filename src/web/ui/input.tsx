import type { ComponentProps } from 'react';
import { cn } from './cn';
import { useFieldControl } from './field';

/** Shared look of text-like controls, so input, textarea, select and the date picker line up. */
// 16px text below sm: iOS Safari zooms the page into any focused field with smaller text.
export const controlClasses = cn(
  'w-full min-w-0 rounded-md border border-border bg-surface px-2.5 text-base text-fg shadow-xs sm:text-sm',
  'placeholder:text-muted-fg transition-colors',
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40',
  'disabled:cursor-not-allowed disabled:opacity-50',
  'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger/40',
);

export type InputProps = ComponentProps<'input'>;

export function Input({ className, type = 'text', ...rest }: InputProps) {
  const props = useFieldControl(rest);
  return <input type={type} className={cn(controlClasses, 'h-9 sm:h-8', className)} {...props} />;
}
