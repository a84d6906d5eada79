// @vitest-environment happy-dom
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn, type DataTableProps } from './data-table';
import './test-setup';

type Client = { id: string; name: string; city: string };

const columns: DataTableColumn<Client>[] = [
  { id: 'name', header: 'Name', cell: (c) => c.name, sortable: true },
  { id: 'city', header: 'City', cell: (c) => c.city },
  { id: 'createdAt', header: 'Created', cell: () => '-', sortable: true, sortDescFirst: true },
];

const rows: Client[] = [
  { id: 'a', name: 'Acme Ltd', city: 'Pune' },
  { id: 'b', name: 'Bharat Traders', city: 'Delhi' },
  { id: 'c', name: 'Chitra & Co', city: 'Mumbai' },
];

function setup(overrides: Partial<DataTableProps<Client>> = {}) {
  const props: DataTableProps<Client> = {
    label: 'Clients',
    columns,
    rows,
    getRowId: (c) => c.id,
    getRowLabel: (c) => c.name,
    total: 1234,
    page: 1,
    pageSize: 50,
    onPageChange: vi.fn(),
    onSortChange: vi.fn(),
    ...overrides,
  };
  const view = render(<DataTable {...props} />);
  return { props, ...view };
}

describe('DataTable', () => {
  it('renders a named table with one row per item', () => {
    setup();
    const table = screen.getByRole('table', { name: 'Clients' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + rows.length);
    expect(screen.getByRole('cell', { name: 'Bharat Traders' })).toBeInTheDocument();
  });

  it('sorts ascending on the first click of an unsorted column', async () => {
    const { props } = setup({ sort: 'createdAt', direction: 'desc' });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(props.onSortChange).toHaveBeenCalledWith('name', 'asc');
  });

  it('flips the direction of the sorted column and reflects it in aria-sort', async () => {
    const { props, rerender } = setup({ sort: 'name', direction: 'asc' });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(props.onSortChange).toHaveBeenLastCalledWith('name', 'desc');

    rerender(<DataTable {...props} sort="name" direction="desc" />);
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(props.onSortChange).toHaveBeenLastCalledWith('name', 'asc');
  });

  it('starts descending on a column that asks for it, and leaves plain columns unsortable', async () => {
    const { props } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Created' }));
    expect(props.onSortChange).toHaveBeenCalledWith('createdAt', 'desc');
    expect(screen.queryByRole('button', { name: 'City' })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'City' })).not.toHaveAttribute('aria-sort');
  });

  it('sorts from the keyboard', async () => {
    const { props } = setup();
    screen.getByRole('button', { name: 'Name' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(props.onSortChange).toHaveBeenCalledWith('name', 'asc');
  });

  it('shows the range and moves between pages', async () => {
    const { props, rerender } = setup();
    expect(screen.getByText('1–50 of 1,234')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(props.onPageChange).toHaveBeenCalledWith(2);

    rerender(<DataTable {...props} page={25} />);
    expect(screen.getByText('1,201–1,234 of 1,234')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(props.onPageChange).toHaveBeenLastCalledWith(24);
  });

  it('says there are more when the server stopped counting', () => {
    const { rerender, props } = setup();
    rerender(<DataTable {...props} total={10_000} totalCapped />);
    expect(screen.getByText('1–50 of 10,000+')).toBeInTheDocument();
    expect(screen.getByText(/Page 1 of 200\+/)).toBeInTheDocument();
  });

  it('changes the page size to one of 25, 50 and 100', async () => {
    const onPageSizeChange = vi.fn();
    setup({ onPageSizeChange });
    const size = screen.getByRole('combobox', { name: 'Rows per page' });
    expect(size).toHaveTextContent('50');
    size.focus();
    await userEvent.keyboard('{Enter}');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['25', '50', '100']);
    await userEvent.click(screen.getByRole('option', { name: '100' }));
    expect(onPageSizeChange).toHaveBeenCalledWith(100);
  });

  it('selects rows one by one and all on the page, with a count in the bulk bar', async () => {
    const onSelectionChange = vi.fn();
    setup({
      onSelectionChange,
      bulkActions: (ids) => <button type="button">Archive {ids.length}</button>,
    });
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Acme Ltd' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all rows on this page' })).toHaveAttribute(
      'aria-checked',
      'mixed',
    );

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    expect(onSelectionChange).toHaveBeenLastCalledWith(['a', 'b', 'c']);
    expect(screen.getByRole('button', { name: 'Archive 3' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();
    expect(onSelectionChange).toHaveBeenLastCalledWith([]);
  });

  it('shows the empty slot when there are no rows', () => {
    setup({ rows: [], total: 0, empty: <p>No clients yet</p> });
    expect(screen.getByText('No clients yet')).toBeInTheDocument();
    expect(screen.getByText('0 results')).toBeInTheDocument();
  });

  it('shows a default empty state without a slot', () => {
    setup({ rows: [], total: 0 });
    expect(screen.getByText('No results')).toBeInTheDocument();
  });

  it('marks the table busy and hides the data while loading', () => {
    setup({ loading: true });
    const table = screen.getByRole('table', { name: 'Clients' });
    expect(table).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Acme Ltd')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    // The skeleton keeps one row per expected row, so the height does not collapse.
    expect(within(table).getAllByRole('row')).toHaveLength(1 + rows.length);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('opens a row by a button named by its primary cell, and leaves the row itself unfocusable', async () => {
    const onRowClick = vi.fn();
    setup({ onRowClick, onSelectionChange: vi.fn() });
    const open = screen.getByRole('button', { name: 'Bharat Traders' });
    expect(open.closest('td')).toHaveTextContent('Bharat Traders');
    await userEvent.click(open);
    expect(onRowClick).toHaveBeenLastCalledWith(rows[1]);

    open.focus();
    await userEvent.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenCalledTimes(2);

    for (const row of screen.getAllByRole('row')) expect(row).not.toHaveAttribute('tabindex');
    // The checkbox is its own control: ticking it selects, it does not open the row.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Chitra & Co' }));
    expect(onRowClick).toHaveBeenCalledTimes(2);
  });

  it('puts the button in the column marked primary', () => {
    setup({
      onRowClick: vi.fn(),
      columns: [
        { ...columns[1], primary: true } as DataTableColumn<Client>,
        columns[0] as DataTableColumn<Client>,
      ],
    });
    expect(screen.getByRole('button', { name: 'Pune' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Acme Ltd' })).not.toBeInTheDocument();
  });

  it('moves between rows with the arrow keys', async () => {
    setup({ onRowClick: vi.fn() });
    const openOf = (name: string) => screen.getByRole('button', { name });
    openOf('Acme Ltd').focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(openOf('Bharat Traders')).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(openOf('Chitra & Co')).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(openOf('Bharat Traders')).toHaveFocus();
  });

  it('clips a truncating column to one line and keeps its minimum width', () => {
    setup({ columns: [{ ...columns[0], truncate: true, minWidth: 10 } as DataTableColumn<Client>] });
    const cell = screen.getByRole('cell', { name: 'Acme Ltd' });
    expect(cell.style.minWidth).toBe('10rem');
    expect(cell.querySelector('[data-clip]')).toHaveTextContent('Acme Ltd');
    expect(screen.getByRole('columnheader', { name: /Name/ }).style.minWidth).toBe('10rem');
  });

  it('ends with a totals row headed by its first cell, and shows none while loading or empty', () => {
    const footer = (c: DataTableColumn<Client>) =>
      c.id === 'name' ? 'Total' : c.id === 'city' ? '3 cities' : '';
    const { rerender, props } = setup({ footer });
    const table = screen.getByRole('table', { name: 'Clients' });
    const last = within(table).getAllByRole('row').at(-1) as HTMLElement;
    expect(within(last).getByRole('rowheader', { name: 'Total' })).toBeInTheDocument();
    expect(within(last).getByRole('cell', { name: '3 cities' })).toBeInTheDocument();
    rerender(<DataTable {...props} loading />);
    expect(screen.queryByRole('rowheader', { name: 'Total' })).not.toBeInTheDocument();
    rerender(<DataTable {...props} rows={[]} total={0} />);
    expect(screen.queryByRole('rowheader', { name: 'Total' })).not.toBeInTheDocument();
  });

  it('counts rows listed ahead of the first page in the range', () => {
    setup({ total: 120, leading: 3, pageSize: 50 });
    expect(screen.getByText('1–53 of 123')).toBeInTheDocument();
  });
});

describe('DataTable rows that lead somewhere', () => {
  function renderLinked(onSelectionChange?: (ids: string[]) => void) {
    const rootRoute = createRootRoute({ component: Outlet });
    const list = createRoute({
      getParentRoute: () => rootRoute,
      path: '/clients',
      component: () => (
        <DataTable
          label="Clients"
          columns={columns}
          rows={rows}
          getRowId={(c) => c.id}
          getRowLabel={(c) => c.name}
          total={rows.length}
          page={1}
          pageSize={50}
          onPageChange={vi.fn()}
          onSelectionChange={onSelectionChange}
          rowLink={(c) => (c.id === 'c' ? null : { to: '/clients/$id', params: { id: c.id } })}
        />
      ),
    });
    const record = createRoute({
      getParentRoute: () => rootRoute,
      path: '/clients/$id',
      component: () => <p>Client page</p>,
    });
    const router = createRouter({
      routeTree: rootRoute.addChildren([list, record]),
      history: createMemoryHistory({ initialEntries: ['/clients'] }),
    });
    render(<RouterProvider router={router} />);
    return router;
  }

  it('makes the primary cell a real link to the record, and only where the row leads somewhere', async () => {
    renderLinked();
    const link = await screen.findByRole('link', { name: 'Acme Ltd' });
    expect(link).toHaveAttribute('href', '/clients/a');
    expect(link.closest('tr')).not.toHaveAttribute('tabindex');
    expect(screen.getByRole('link', { name: 'Bharat Traders' })).toHaveAttribute('href', '/clients/b');
    expect(screen.queryByRole('link', { name: 'Chitra & Co' })).not.toBeInTheDocument();
  });

  it('follows the link on click, and leaves the checkbox to select', async () => {
    const onSelectionChange = vi.fn();
    const router = renderLinked(onSelectionChange);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Acme Ltd' }));
    expect(onSelectionChange).toHaveBeenLastCalledWith(['a']);
    expect(router.state.location.pathname).toBe('/clients');

    await userEvent.click(screen.getByRole('link', { name: 'Bharat Traders' }));
    await screen.findByText('Client page');
    expect(router.state.location.pathname).toBe('/clients/b');
  });
});
