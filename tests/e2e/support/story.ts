/**
 * A story told as one test. Its steps build on each other (an invoice made, then issued, then
 * paid), so a retry (CI retries a failed test once) has to start again from the beginning, on a
 * firm of its own: a later step retried alone ran on whatever the failed attempt had left. Each
 * step's failure says which step it was.
 */
export async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Error) error.message = `${name}: ${error.message}`;
    throw error;
  }
}

/** A story's steps together: each step has had the browser suite's 120 s on its own. */
export const STORY_TIMEOUT = 360_000;

const addresses = new Map<string, number>();

/**
 * A story's mail address, new on each attempt (`name+2@…` on the second): the outbox and a
 * portal sign-in by address are shared by every firm in the run, so a retry must not read the
 * failed attempt's mail as its own.
 */
export function freshAddress(address: string): string {
  const n = (addresses.get(address) ?? 0) + 1;
  addresses.set(address, n);
  return n === 1 ? address : address.replace('@', `+${n}@`);
}
