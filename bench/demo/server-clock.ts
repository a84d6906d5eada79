// The product stamps most of what it does with the moment it runs, and the replay moves those rows
// onto the days they stand for (clock.ts). A few of its saves read the server's clock to decide
// what to do, not only to stamp it: an engagement billed as each period starts bills, as it is
// saved, the period the server's today falls in; a credit note is dated the server's today. Replayed
// a year back they would act on the real today, so they run with the server's `new Date()` at the
// replay's moment. Only the constructor without arguments moves: Date.now stays real, so the
// clock's marks and the database's own now() are untouched, and instanceof still knows every date.

const RealDate = Date;

/** Runs `step` with `new Date()` reading `moment` (and the time that passes from it). */
export async function atServerTime<T>(moment: Date, step: () => Promise<T>): Promise<T> {
  const offset = moment.getTime() - RealDate.now();
  class ReplayDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string]));
    }
    static override [Symbol.hasInstance](value: unknown) {
      return value instanceof RealDate;
    }
  }
  globalThis.Date = ReplayDate as unknown as DateConstructor;
  try {
    return await step();
  } finally {
    globalThis.Date = RealDate;
  }
}
