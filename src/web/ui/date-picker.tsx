import { todayIn } from '@domain/days';
import { format, isValid } from 'date-fns';
import { CalendarDays, ChevronLeft, ChevronRight, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import { type Ref, useId, useState } from 'react';
import { DayPicker } from 'react-day-picker';
import { Button } from './button';
import { cn } from './cn';
import { useFieldControl } from './field';
import { useFormat } from './format';
import { controlClasses } from './input';

/** A date-only value, 'YYYY-MM-DD'. */
export type DateString = string;

const ISO = 'yyyy-MM-dd';

/**
 * 'YYYY-MM-DD' to a Date at local noon, for the calendar only. Noon keeps the day right across DST
 * shifts; the Date never leaves this file, so no caller sees a local-midnight Date shifting a day.
 */
export function parseDateString(value: string | null | undefined): Date | undefined {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  // new Date rolls 2026-02-30 over to March; such a string is not a date.
  return isValid(d) && format(d, ISO) === value ? d : undefined;
}

/** The calendar day a Date shows, read in local time (which is how DayPicker built it). */
export function toDateString(date: Date): DateString {
  return format(date, ISO);
}

export type DatePickerProps = {
  value: DateString | null | undefined;
  onChange: (value: DateString | null) => void;
  placeholder?: string;
  disabled?: boolean;
  /** Offer a clear button (default true); set false for a required date. */
  clearable?: boolean;
  min?: DateString;
  max?: DateString;
  id?: string;
  /** With the next two, lets react-hook-form's Controller spread its `field` in and focus the picker on error. */
  name?: string;
  onBlur?: () => void;
  ref?: Ref<HTMLButtonElement>;
  className?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
};

/**
 * A button showing the date that opens a keyboard-usable calendar (arrows move by day, PageUp/PageDown by
 * month, Enter picks, Escape closes and returns focus). Works inside <Field>, which supplies id and aria-*.
 * With react-hook-form, wrap it in a Controller: `render={({ field }) => <DatePicker {...field} />}`.
 */
export function DatePicker(props: DatePickerProps) {
  const {
    value,
    onChange,
    placeholder = 'Pick a date',
    disabled,
    clearable = true,
    min,
    max,
    id,
    name,
    onBlur,
    ref,
    className,
    'aria-describedby': describedBy,
    // ARIA allows aria-required on inputs and comboboxes, not on a button (the trigger): a required
    // date is said by the Field's label.
    'aria-required': _required,
    ...aria
  } = useFieldControl(props);
  const [open, setOpen] = useState(false);
  const valueId = useId();
  const selected = parseDateString(value);
  const minDate = parseDateString(min);
  const maxDate = parseDateString(max);
  const disabledDays = [...(minDate ? [{ before: minDate }] : []), ...(maxDate ? [{ after: maxDate }] : [])];
  const { date: formatDate, weekStartsOn, timeZone } = useFormat();
  // The button reads the day as the firm writes dates; the value stays 'YYYY-MM-DD'.
  const shown = selected && value ? formatDate(value) : null;

  return (
    <div className={cn('relative w-full', className)}>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild>
          <button
            ref={ref}
            type="button"
            id={id}
            name={name}
            onBlur={onBlur}
            disabled={disabled}
            aria-describedby={[describedBy, shown ? valueId : null].filter(Boolean).join(' ') || undefined}
            className={cn(
              controlClasses,
              'flex h-9 items-center gap-2 text-left sm:h-8',
              clearable && selected ? 'pr-8' : '',
              !selected && 'text-muted-fg',
            )}
            {...aria}
          >
            <CalendarDays aria-hidden="true" className="size-4 shrink-0 text-muted-fg" />
            <span className="truncate">{shown ?? placeholder}</span>
          </button>
        </Popover.Trigger>
        {shown ? (
          <span id={valueId} className="sr-only">
            {`Selected: ${shown}`}
          </span>
        ) : null}
        <Popover.Portal>
          <Popover.Content
            aria-label="Calendar"
            align="start"
            sideOffset={4}
            className="z-50 rounded-lg border border-border bg-surface p-2 text-fg shadow-lg focus:outline-none"
          >
            <DayPicker
              mode="single"
              autoFocus
              selected={selected}
              defaultMonth={selected ?? minDate}
              disabled={disabledDays}
              onSelect={(d) => {
                // Clicking the selected day again deselects in DayPicker; here it just closes.
                if (d) onChange(toDateString(d));
                setOpen(false);
              }}
              showOutsideDays
              weekStartsOn={weekStartsOn}
              classNames={calendarClasses}
              components={{ Chevron: CalendarChevron }}
            />
            <div className="mt-1 flex justify-between gap-2 border-t border-border pt-2">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  // The firm's today, which the browser's clock may not agree with.
                  onChange(todayIn(timeZone));
                  setOpen(false);
                }}
              >
                Today
              </Button>
              {clearable && selected ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    onChange(null);
                    setOpen(false);
                  }}
                >
                  Clear
                </Button>
              ) : null}
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {clearable && selected && !disabled ? (
        <button
          type="button"
          aria-label="Clear date"
          onClick={() => onChange(null)}
          className="absolute top-1/2 right-1 grid size-6 -translate-y-1/2 place-items-center rounded-sm text-muted-fg hover:bg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
        >
          <X aria-hidden="true" className="size-3.5" />
        </button>
      ) : null}
    </div>
  );
}

function CalendarChevron({ orientation }: { orientation?: 'up' | 'down' | 'left' | 'right' }) {
  return orientation === 'left' ? (
    <ChevronLeft aria-hidden="true" className="size-4" />
  ) : (
    <ChevronRight aria-hidden="true" className="size-4" />
  );
}

const dayButton =
  'grid size-8 place-items-center rounded-md text-sm outline-none hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring';

// DayPicker's own stylesheet is not loaded; these classes are the whole look, in the app's tokens.
const calendarClasses = {
  root: 'relative text-sm',
  months: 'relative flex flex-col',
  month: 'flex flex-col gap-2',
  month_caption: 'flex h-8 items-center px-2 font-medium',
  caption_label: 'text-sm font-medium',
  nav: 'absolute top-0 right-0 z-10 flex items-center gap-1',
  button_previous: cn(dayButton, 'text-muted-fg disabled:opacity-40'),
  button_next: cn(dayButton, 'text-muted-fg disabled:opacity-40'),
  month_grid: 'border-collapse',
  weekdays: '',
  weekday: 'size-8 text-center text-xs font-normal text-muted-fg',
  week: '',
  day: 'p-0 text-center',
  day_button: dayButton,
  today: 'font-semibold text-primary',
  selected: '[&>button]:bg-primary [&>button]:text-primary-fg [&>button]:hover:bg-primary/90',
  // Days of the next and previous month read at the muted text's full contrast (WCAG 1.4.3).
  outside: 'text-muted-fg',
  disabled: 'opacity-40 [&>button]:pointer-events-none',
  hidden: 'invisible',
  focused: '',
};
