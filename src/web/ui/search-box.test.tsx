// @vitest-environment happy-dom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from './search-box';
import './test-setup';

/** A list page in miniature: the URL's search value, a box, and a "Clear filters" button. */
function Harness({ onSearch }: { onSearch: (value: string | undefined) => void }) {
  const [value, setValue] = useState<string | undefined>(undefined);
  return (
    <>
      <SearchBox
        label="Search clients"
        placeholder="Search"
        value={value}
        onSearch={(next) => {
          onSearch(next);
          setValue(next);
        }}
      />
      <button type="button" onClick={() => setValue(undefined)}>
        Clear filters
      </button>
      <output>{value ?? '(none)'}</output>
    </>
  );
}

// The debounce runs on faked timers (only setTimeout/clearTimeout; React's scheduler and the DOM
// keep their own): the test moves time to either side of the 300 ms pause instead of sleeping.
// Keys are typed with fireEvent, one change per key: user-event waits on a setTimeout of its own
// that only Jest's fake timers know to advance.
const DEBOUNCE_MS = 300;
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
async function type(box: HTMLElement, text: string, msBetweenKeys = 0) {
  for (const [i, key] of [...text].entries()) {
    if (i > 0) await wait(msBetweenKeys);
    fireEvent.change(box, { target: { value: (box as HTMLInputElement).value + key } });
  }
}

describe('SearchBox', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports the trimmed text once typing pauses', async () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    // Keys a little under the pause apart: nothing is reported while typing goes on.
    await type(screen.getByRole('searchbox', { name: 'Search clients' }), '  acme ', DEBOUNCE_MS - 50);
    await wait(DEBOUNCE_MS - 1);
    expect(onSearch).not.toHaveBeenCalled();
    await wait(1);
    expect(screen.getByRole('status')).toHaveTextContent('acme');
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenLastCalledWith('acme');
  });

  it('empties the box when the value is cleared from outside, and does not bring the old text back', async () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    const box = screen.getByRole('searchbox', { name: 'Search clients' });
    await type(box, 'acme');
    await wait(DEBOUNCE_MS);
    expect(screen.getByRole('status')).toHaveTextContent('acme');
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(box).toHaveValue('');
    // Well past any pause the box could still be waiting out.
    await wait(10 * DEBOUNCE_MS);
    expect(screen.getByRole('status')).toHaveTextContent('(none)');
    expect(box).toHaveValue('');
    expect(onSearch).toHaveBeenCalledTimes(1);
  });
});
