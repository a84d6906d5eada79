import { type RefObject, useEffect, useState } from 'react';

/**
 * Whether an element's content is wider than the element, so that it scrolls sideways; kept up to
 * date as either changes size (rows arriving, the window narrowing).
 */
export function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}
