import { Tabs as TabsPrimitive } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import { ScrollStrip } from './scroll-strip';

/**
 * Radix tabs: arrow keys move between triggers, Tab moves into the panel. Every trigger controls a
 * panel (aria-controls), so render a TabsContent for the selected value, even when the tabs only
 * filter what is below them.
 */
export const Tabs = TabsPrimitive.Root;

const stripClasses = 'flex items-center gap-4 overflow-x-auto border-b border-border';

/** A tab's look, for Radix triggers and for links that act as tabs (TabNav). */
export const tabClasses = cn(
  '-mb-px inline-flex h-9 shrink-0 items-center gap-1.5 border-b-2 border-transparent px-0.5 text-sm font-medium text-muted-fg',
  'transition-colors hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring',
  'data-[state=active]:border-primary data-[state=active]:text-fg data-[status=active]:border-primary data-[status=active]:text-fg',
  'disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4',
);

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <ScrollStrip>
      <TabsPrimitive.List className={cn(stripClasses, className)} {...props} />
    </ScrollStrip>
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return <TabsPrimitive.Trigger className={cn(tabClasses, className)} {...props} />;
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  // A panel Radix makes a tab stop keeps the focus ring every focusable element has.
  return <TabsPrimitive.Content className={cn('pt-4', className)} {...props} />;
}

/**
 * Sections that are routes of their own, as tabs: a nav of links styled with `tabClasses` (the
 * router marks the current one `data-status="active"`).
 */
export function TabNav({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ScrollStrip>
      <nav aria-label={label} className={stripClasses}>
        {children}
      </nav>
    </ScrollStrip>
  );
}
