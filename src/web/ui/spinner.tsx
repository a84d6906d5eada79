import { Loader2 } from 'lucide-react';
import { cn } from './cn';

export type SpinnerProps = {
  className?: string;
  /** Announced to screen readers; pass `null` when the spinner sits inside something already labelled. */
  label?: string | null;
};

export function Spinner({ className, label = 'Loading' }: SpinnerProps) {
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center">
      <Loader2
        aria-hidden="true"
        className={cn('size-4 animate-spin motion-reduce:animate-none', className)}
      />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
