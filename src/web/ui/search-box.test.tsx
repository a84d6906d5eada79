// @vitest-environment happy-dom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
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

describe('SearchBox', () => {
  it('reports the trimmed text once typing pauses', async () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search clients' }), '  acme ');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('acme'));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenLastCalledWith('acme');
  });

  it('empties the box when the value is cleared from outside, and does not bring the old text back', async () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    const box = screen.getByRole('searchbox', { name: 'Search clients' });
    await userEvent.type(box, 'acme');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('acme'));
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(box).toHaveValue('');
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.getByRole('status')).toHaveTextContent('(none)');
    expect(onSearch).toHaveBeenCalledTimes(1);
  });
});
