import type { ComponentProps } from 'react';
import { cn } from './cn';

/** Shared look of text-like controls, so input, textarea, select and the date picker line up. */
export const controlClasses = cn(
  'w-full min-w-0 rounded-md border border-border bg-surface px-2.5 text-sm text-fg shadow-xs',
  'placeholder:text-muted-fg transition-colors',
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40',
  'disabled:cursor-not-allowed disabled:opacity-50',
  'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger/40',
);

export type InputProps = ComponentProps<'input'>;

export function Input({ className, type = 'text', ...props }: InputProps) {
  return <input type={type} className={cn(controlClasses, 'h-8', className)} {...props} />;
}
