// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker, parseDateString, toDateString } from './date-picker';
import { Field } from './field';
import { FormatProvider } from './format';
import './test-setup';

// A form field holding the picker's value, shown in an <output> for the assertions.
function Controlled() {
  const [value, setValue] = useState<string | null>('2026-01-05');
  return (
    <>
      <DatePicker aria-label="Start" value={value} onChange={setValue} />
      <output>{value ?? 'empty'}</output>
    </>
  );
}

describe('DatePicker', () => {
  it('returns the clicked day as a YYYY-MM-DD string', async () => {
    const onChange = vi.fn();
    render(
      <FormatProvider settings={{ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' }}>
        <DatePicker aria-label="Due date" value="2026-03-10" onChange={onChange} />
      </FormatProvider>,
    );
    const trigger = screen.getByRole('button', { name: 'Due date' });
    expect(trigger).toHaveTextContent('10 Mar 2026');
    await userEvent.click(trigger);
    await userEvent.click(await screen.findByRole('button', { name: /March 15th, 2026/ }));
    expect(onChange).toHaveBeenCalledWith('2026-03-15');
    expect(typeof onChange.mock.calls[0]?.[0]).toBe('string');
  });

  it('is usable from the keyboard: focus lands on the chosen day, arrows move, Enter picks', async () => {
    const onChange = vi.fn();
    render(<DatePicker aria-label="Due date" value="2026-03-31" onChange={onChange} />);
    screen.getByRole('button', { name: 'Due date' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: /March 31st, 2026, selected/ })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{Enter}');
    // Crossing into the next month still yields the calendar day, not a shifted one.
    expect(onChange).toHaveBeenCalledWith('2026-04-01');
  });

  it('reads the day as the firm writes dates', () => {
    render(
      <FormatProvider settings={{ country: 'US', timeZone: 'America/New_York', currency: 'USD' }}>
        <DatePicker aria-label="Due date" value="2026-11-24" onChange={() => {}} />
      </FormatProvider>,
    );
    expect(screen.getByRole('button', { name: 'Due date' })).toHaveTextContent('Nov 24, 2026');
  });

  it('picks the firm’s today, not the browser’s', async () => {
    // 20:00 UTC on 24 Nov is already 25 Nov in Kolkata.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.UTC(2026, 10, 24, 20, 0)) });
    try {
      const onChange = vi.fn();
      render(
        <FormatProvider settings={{ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' }}>
          <DatePicker aria-label="Due date" value={null} onChange={onChange} />
        </FormatProvider>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Due date' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Today' }));
      expect(onChange).toHaveBeenCalledWith('2026-11-25');
    } finally {
      vi.useRealTimers();
    }
  });

  it('clears to null', async () => {
    render(<Controlled />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear date' }));
    expect(screen.getByRole('status')).toHaveTextContent('empty');
    expect(screen.getByRole('button', { name: 'Start' })).toHaveTextContent('Pick a date');
  });

  it('takes its label and description from Field', () => {
    render(
      <Field label="Due date" error="Due date is required">
        <DatePicker value={null} onChange={() => {}} />
      </Field>,
    );
    const trigger = screen.getByRole('button', { name: 'Due date' });
    expect(trigger).toHaveAccessibleDescription(/Due date is required/);
    expect(trigger).toHaveAttribute('aria-invalid', 'true');
  });

  it('round-trips date strings without shifting a day', () => {
    for (const s of ['2026-01-01', '2026-03-29', '2026-10-25', '2026-12-31', '2024-02-29']) {
      const d = parseDateString(s);
      expect(d).toBeDefined();
      expect(toDateString(d as Date)).toBe(s);
    }
    expect(parseDateString('2026-02-30')).toBeUndefined();
    expect(parseDateString('not a date')).toBeUndefined();
  });
});
