// Apart from dates.ts: the portal's home greets, and dates.ts's relative dates bring date-fns's
// English locale (about 2 KB compressed) that no portal screen uses.

/** Greeting by the viewer's local hour (SPEC.md §5). */
export function greeting(at: Date = new Date()): 'Good Morning' | 'Good Afternoon' | 'Good Evening' {
  const hour = at.getHours();
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}
