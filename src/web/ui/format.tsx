import { browserTimeZone, createFormatter, type TFormatter, type TLocaleSettings } from '@domain/format';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

// Inside a firm, FormatProvider gives every screen the firm's formatter. Outside one (sign-in,
// onboarding, a component's own test) there is no firm to follow: US English on the browser's clock.
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

/** A day where no hook can run (a column defined once for a table), in a <time> machines read. */
export function DateText({ value }: { value: Date | string | null | undefined }) {
  const format = useFormat();
  const instant = value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
  return <time dateTime={typeof value === 'string' ? value : instant}>{format.date(value)}</time>;
}
