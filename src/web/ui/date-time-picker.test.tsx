// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateTimePicker } from './date-time-picker';
import { FormatProvider } from './format';
import './test-setup';

function Controlled({ initial }: { initial: Date | null }) {
  const [value, setValue] = useState<Date | null>(initial);
  return (
    <FormatProvider settings={{ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' }}>
      <DateTimePicker aria-label="Send at" value={value} onChange={setValue} />
      <output>{value ? value.toISOString() : 'empty'}</output>
    </FormatProvider>
  );
}

describe('DateTimePicker', () => {
  it('shows and reads the time on the firm’s clock, and says which zone', async () => {
    // 03:30 UTC is 09:00 in India, whatever zone the machine running this is in.
    render(<Controlled initial={new Date('2026-12-18T03:30:00Z')} />);
    expect(screen.getByRole('button', { name: 'Send at' })).toHaveTextContent('18 Dec 2026');
    const time = screen.getByRole('textbox', { name: 'Time (Asia/Kolkata)' });
    expect(time).toHaveValue('09:00');
    expect(screen.getByText('Asia/Kolkata time')).toBeInTheDocument();
    await userEvent.clear(time);
    await userEvent.type(time, '2:15 pm');
    expect(screen.getByRole('status')).toHaveTextContent('2026-12-18T08:45:00.000Z');
  });

  it('has no instant until the time can be read', async () => {
    render(<Controlled initial={new Date('2026-12-18T03:30:00Z')} />);
    const time = screen.getByRole('textbox', { name: 'Time (Asia/Kolkata)' });
    await userEvent.clear(time);
    await userEvent.type(time, '25:00');
    expect(screen.getByRole('status')).toHaveTextContent('empty');
    expect(time).toHaveAttribute('aria-invalid', 'true');
  });
});
