import { clockTimeText, instantIn, parseClockTime, wallClockIn } from '@domain/time-zone';
import { useEffect, useState } from 'react';
import { cn } from './cn';
import { DatePicker } from './date-picker';
import { type FieldControlProps, useFieldControl } from './field';
import { useFormat } from './format';
import { controlClasses } from './input';

export type DateTimePickerProps = FieldControlProps & {
  /** The instant chosen, or null. */
  value: Date | null | undefined;
  onChange: (value: Date | null) => void;
  /** The time a newly picked day starts at, in minutes after midnight (09:00 by default). */
  defaultMinutes?: number;
  clearable?: boolean;
  disabled?: boolean;
  /** The earliest and latest days offered, 'YYYY-MM-DD' on the firm's calendar. */
  min?: string;
  max?: string;
  className?: string;
  'aria-label'?: string;
};

/**
 * A date and a time on the firm's clock, whatever the browser's zone: the day in the firm's date
 * format (the design system's picker), the time typed as 09:00 or 9 pm, and the zone said beside it.
 * Native datetime inputs show the browser's locale and read the browser's zone, which is not the
 * firm's for a member abroad or a laptop set to another zone.
 */
export function DateTimePicker(props: DateTimePickerProps) {
  const {
    value,
    onChange,
    defaultMinutes = 9 * 60,
    clearable = true,
    disabled,
    min,
    max,
    className,
    ...aria
  } = useFieldControl(props);
  const { timeZone } = useFormat();
  const wall = value && !Number.isNaN(value.getTime()) ? wallClockIn(value, timeZone) : null;
  const [day, setDay] = useState<string | null>(wall?.day ?? null);
  const [time, setTime] = useState(wall ? clockTimeText(wall.minutes) : '');
  const valueKey = value ? value.getTime() : null;
  // A value set from outside (a reset, a template) shows; one this field just sent is already shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the instant, read through valueKey
  useEffect(() => {
    const shown = day !== null ? parseClockTime(time) : null;
    const current = day !== null && shown !== null ? instantIn(day, shown, timeZone).getTime() : null;
    if (current === valueKey) return;
    setDay(wall?.day ?? null);
    setTime(wall ? clockTimeText(wall.minutes) : '');
  }, [valueKey, timeZone]);

  const send = (nextDay: string | null, nextTime: string) => {
    const minutes = parseClockTime(nextTime);
    onChange(nextDay !== null && minutes !== null ? instantIn(nextDay, minutes, timeZone) : null);
  };
  const badTime = time.trim() !== '' && parseClockTime(time) === null;
  const timeId = `${aria.id ?? 'date-time'}-time`;
  return (
    <div className={cn('flex w-full flex-wrap items-center gap-2', className)}>
      <DatePicker
        id={aria.id}
        aria-label={aria['aria-label']}
        aria-describedby={aria['aria-describedby']}
        aria-invalid={aria['aria-invalid'] ? true : undefined}
        className="w-auto min-w-40 flex-1"
        value={day}
        min={min}
        max={max}
        disabled={disabled}
        clearable={clearable}
        onChange={(d) => {
          const t = d && time.trim() === '' ? clockTimeText(defaultMinutes) : time;
          setDay(d);
          setTime(d ? t : '');
          send(d, t);
        }}
      />
      <input
        id={timeId}
        aria-label={`Time (${timeZone})`}
        aria-invalid={badTime || undefined}
        disabled={disabled || day === null}
        inputMode="numeric"
        placeholder="09:00"
        className={cn(controlClasses, 'h-9 w-24 tabular-nums sm:h-8 aria-invalid:border-danger')}
        value={time}
        onChange={(e) => {
          setTime(e.target.value);
          send(day, e.target.value);
        }}
        onBlur={() => {
          const minutes = parseClockTime(time);
          if (minutes !== null) setTime(clockTimeText(minutes));
        }}
      />
      <span className="text-xs text-muted-fg" data-testid="time-zone">
        {timeZone} time
      </span>
    </div>
  );
}
