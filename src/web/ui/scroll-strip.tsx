import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Slot } from 'radix-ui';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import { cn } from './cn';

type TEdges = { start: boolean; end: boolean };

/**
 * A row of tabs or chips that scrolls sideways when it does not fit, and shows that it does: the
 * cut side fades out under a chevron. Wraps its one child (a nav, a tab list), which becomes the
 * scrolling element; focus moving along it scrolls it as usual.
 */
export function ScrollStrip({ children, className }: { children: ReactElement; className?: string }) {
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState<TEdges>({ start: false, end: false });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(el);
    for (const child of el.children) resize?.observe(child);
    return () => {
      el.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, []);

  const fade = '2.5rem';
  const mask = `linear-gradient(to right, ${more.start ? `transparent, black ${fade}` : 'black'}, ${
    more.end ? `black calc(100% - ${fade}), transparent` : 'black'
  })`;
  return (
    <div className={cn('relative min-w-0', className)} data-overflow={more.end || more.start || undefined}>
      {/* Scroll padding as wide as the fade: a tab focused at the edge scrolls clear of it. */}
      <Slot.Root
        ref={ref}
        style={more.start || more.end ? { maskImage: mask, scrollPaddingInline: fade } : undefined}
      >
        {children}
      </Slot.Root>
      {more.start ? (
        <ChevronLeft
          aria-hidden="true"
          data-testid="scroll-more-start"
          className="pointer-events-none absolute top-1/2 left-0 size-4 -translate-y-1/2 text-muted-fg"
        />
      ) : null}
      {more.end ? (
        <ChevronRight
          aria-hidden="true"
          data-testid="scroll-more-end"
          className="pointer-events-none absolute top-1/2 right-0 size-4 -translate-y-1/2 text-muted-fg"
        />
      ) : null}
    </div>
  );
}
