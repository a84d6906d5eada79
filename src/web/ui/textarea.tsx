import type { ComponentProps } from 'react';
import { cn } from './cn';
import { useFieldControl } from './field';
import { controlClasses } from './input';

export type TextareaProps = ComponentProps<'textarea'>;

export function Textarea({ className, rows = 3, ...rest }: TextareaProps) {
  const props = useFieldControl(rest);
  return <textarea rows={rows} className={cn(controlClasses, 'min-h-16 py-1.5', className)} {...props} />;
}
