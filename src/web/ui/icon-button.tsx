import type { ComponentProps } from 'react';
import { Button } from './button';
import { cn } from './cn';

export type IconButtonProps = Omit<ComponentProps<typeof Button>, 'aria-label'> & {
  /** Required: an icon alone says nothing to a screen reader. */
  'aria-label': string;
};

/** A square button holding only an icon. */
export function IconButton({ className, size = 'md', variant = 'ghost', ...props }: IconButtonProps) {
  return (
    <Button
      variant={variant}
      size={size}
      className={cn(
        size === 'sm' ? 'size-7 px-0' : size === 'lg' ? 'size-10 px-0' : 'size-8 px-0',
        className,
      )}
      {...props}
    />
  );
}
