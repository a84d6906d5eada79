import type { ComponentProps } from 'react';
import { cn } from './cn';

/** A placeholder block with the size of the content to come, so the layout does not jump when it arrives. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-border motion-reduce:animate-none', className)}
      {...props}
    />
  );
}
