import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from './cn';

// The tones are the spec's badge colours (SPEC.md §4) plus the brand; soft fills read calmly in a dense table.
export const badgeVariants = cva(
  'inline-flex h-5 shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-1.5 text-xs font-medium ring-1 ring-inset [&_svg]:size-3',
  {
    variants: {
      tone: {
        grey: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-500/15 dark:text-slate-300 dark:ring-slate-400/25',
        blue: 'bg-blue-50 text-blue-700 ring-blue-600/20 dark:bg-blue-500/15 dark:text-blue-300 dark:ring-blue-400/30',
        yellow:
          'bg-amber-50 text-amber-800 ring-amber-600/25 dark:bg-amber-400/15 dark:text-amber-300 dark:ring-amber-400/30',
        green:
          'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/15 dark:text-emerald-300 dark:ring-emerald-400/30',
        red: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-500/15 dark:text-red-300 dark:ring-red-400/30',
        'light-grey':
          'bg-slate-50 text-slate-500 ring-slate-400/15 dark:bg-slate-500/10 dark:text-slate-400 dark:ring-slate-500/20',
        primary: 'bg-primary/10 text-primary ring-primary/20 dark:text-indigo-300',
        outline: 'bg-transparent text-fg ring-border',
      },
    },
    defaultVariants: { tone: 'grey' },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

export type BadgeProps = ComponentProps<'span'> & { tone?: BadgeTone; dot?: boolean };

/** A small label. `dot` adds a coloured dot before the text, so colour is never the only signal. */
export function Badge({ className, tone, dot, children, ...props }: BadgeProps) {
  return (
    <span className={cn(badgeVariants({ tone }), className)} {...props}>
      {dot ? <span aria-hidden="true" className="size-1.5 rounded-full bg-current opacity-80" /> : null}
      {children}
    </span>
  );
}
