import { browserTimeZone, createFormatter, type TFormatter, type TLocaleSettings } from '@domain/format';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

// Outside a firm (sign-in, onboarding, a component's own test) nothing is known but the browser's
// clock; inside one, FormatProvider gives every screen the firm's formatter.
const FormatContext = createContext<TFormatter | null>(null);
let outsideAnyFirm: TFormatter | null = null;

/** Dates and numbers below it follow this firm's country, time zone and currency. */
export function FormatProvider({ settings, children }: { settings: TLocaleSettings; children: ReactNode }) {
  const { country, timeZone, currency } = settings;
  const formatter = useMemo(
    () => createFormatter({ country, timeZone, currency }),
    [country, timeZone, currency],
  );
  return <FormatContext.Provider value={formatter}>{children}</FormatContext.Provider>;
}

/** The formatter of the firm this screen serves: staff see their firm's, portal users their firm's. */
export function useFormat(): TFormatter {
  const formatter = useContext(FormatContext);
  if (formatter) return formatter;
  outsideAnyFirm ??= createFormatter({ country: 'US', timeZone: browserTimeZone(), currency: 'USD' });
  return outsideAnyFirm;
}

/**
 * A date where no hook can run (a column defined once for a table): the day, or with `time` the
 * instant, as the firm writes it, in a <time> element machines can read.
 */
export function DateText({
  value,
  time = false,
}: {
  value: Date | string | null | undefined;
  time?: boolean;
}) {
  const format = useFormat();
  const text = time ? format.dateTime(value) : format.date(value);
  const machine =
    value instanceof Date
      ? Number.isNaN(value.getTime())
        ? undefined
        : value.toISOString()
      : (value ?? undefined);
  return <time dateTime={machine}>{text}</time>;
}
