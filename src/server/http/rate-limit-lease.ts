// A caller's numbers in the shared rate-limit count, reserved by one instance a few at a time
// (rate-limit-store.ts). Pure, so the sizing rule is tested on its own (rate-limit-lease.test.ts).

/** One instance's reservation for one key in the current window: numbers next … last are unused. */
export type TLease = { next: number; last: number; size: number; windowEndsAt: number };

/** The most numbers one statement reserves for one caller. */
export const LEASE_MAX = 32;

/**
 * How many numbers to reserve for `waiting` calls. The first reservation of a window is exact (the
 * shared count is unknown); after that it doubles up to LEASE_MAX while staying within a quarter
 * of what the last statement saw left under the limit, so near the limit every call is counted on
 * its own, and numbers held here when the caller moves to another instance are at most a third of
 * what remains.
 */
export function leaseSize(lease: TLease | undefined, waiting: number, max: number, now: number): number {
  if (!lease || lease.windowEndsAt <= now || !Number.isFinite(max)) return waiting;
  const quarterLeft = Math.floor((max - lease.last) / 4);
  return Math.max(waiting, Math.min(LEASE_MAX, lease.size * 2, quarterLeft));
}

/** The next reserved number (the count this call would have had alone). */
export function takeSlot(lease: TLease): number {
  const slot = lease.next;
  lease.next += 1;
  return slot;
}

/** A lease of the current window with a number left to hand out. */
export function hasUnused(lease: TLease | undefined, now: number): lease is TLease {
  return lease !== undefined && lease.windowEndsAt > now && lease.next <= lease.last;
}

/** Over the limit for the rest of the window: the shared count only grows until the window ends. */
export function spent(lease: TLease | undefined, max: number, now: number): lease is TLease {
  return lease !== undefined && lease.windowEndsAt > now && lease.next > lease.last && lease.last >= max;
}
