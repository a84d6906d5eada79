// @vitest-environment happy-dom
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DataTableColumn } from './data-table';
import { ListScreen, useListUrl } from './list-screen';
import { listQueryParams, oneOfParam, parseListParams, type TListParams } from './list-search';
import './test-setup';

type Client = { id: string; name: string; status: 'active' | 'inactive' };
type TSearch = TListParams<'name' | 'status'> & { status?: Client['status'] };

const ALL_CLIENTS: Client[] = Array.from({ length: 30 }, (_, i) => ({
  id: `c${i + 1}`,
  name: `Client ${String(i + 1).padStart(2, '0')}`,
  status: i % 3 === 0 ? 'inactive' : 'active',
}));

const columns: DataTableColumn<Client>[] = [
  { id: 'name', header: 'Name', cell: (c) => c.name, sortable: true },
  { id: 'status', header: 'Status', cell: (c) => c.status },
];

/** What a server would answer for the query the screen asks for. */
function answer(query: ReturnType<typeof listQueryParams<'name' | 'status'>> & { status?: string }) {
  const matching = ALL_CLIENTS.filter(
    (c) => (!query.search || c.name.includes(query.search)) && (!query.status || c.status === query.status),
  ).sort((a, b) => (query.direction === 'asc' ? 1 : -1) * a.name.localeCompare(b.name));
  const start = (query.page - 1) * query.pageSize;
  return { rows: matching.slice(start, start + query.pageSize), total: matching.length };
}

function Screen() {
  // The app registers its own router, so a test route's search is typed here.
  const url = useListUrl(listRoute.useSearch() as TSearch);
  const query = {
    ...listQueryParams(url.search, { sort: 'name' }),
    ...(url.search.status ? { status: url.search.status } : {}),
  };
  return (
    <ListScreen
      label="Clients"
      url={url}
      query={query}
      list={{ data: answer(query), isPending: false }}
      columns={columns}
      getRowId={(c) => c.id}
      getRowLabel={(c) => c.name}
      searchBox={{ label: 'Search clients', placeholder: 'Search' }}
      filters={[
        {
          key: 'status',
          label: 'Status',
          all: 'All statuses',
          options: [
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ],
        },
      ]}
      bulkActions={(ids, clear) => (
        <button type="button" onClick={clear}>
          Archive {ids.length}
        </button>
      )}
      noMatch={{ title: 'No clients match', message: 'Try another name.', clear: true }}
      empty={<p>No clients yet</p>}
    />
  );
}

const rootRoute = createRootRoute({ component: Outlet });
const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/clients',
  validateSearch: (search: Record<string, unknown>): TSearch => ({
    ...parseListParams(search, ['name', 'status'] as const),
    status: oneOfParam(['active', 'inactive'] as const, search.status),
  }),
  component: Screen,
});

function renderAt(url: string) {
  const router = createRouter({
    routeTree: rootRoute.addChildren([listRoute]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

const search = (router: ReturnType<typeof renderAt>) => router.state.location.search as TSearch;

describe('ListScreen', () => {
  it('shows the page, sort and filter the URL names', async () => {
    renderAt('/clients?page=2&pageSize=25&direction=desc');
    const table = await screen.findByRole('table', { name: 'Clients' });
    // Descending, page two of 25: the last five of thirty names.
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 5);
    expect(within(table).getByText('Client 05')).toBeInTheDocument();
    expect(screen.getByText('26–30 of 30')).toBeInTheDocument();
  });

  it('puts a sort and a page in the URL, a new sort starting again from page one', async () => {
    const router = renderAt('/clients');
    await screen.findByText('1–25 of 30');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(search(router).page).toBe(2));
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(search(router)).toMatchObject({ sort: 'name', direction: 'desc' }));
    expect(search(router).page).toBeUndefined();
    await screen.findByText('Client 30');
  });

  it('filters through the URL, says when nothing matches, and clears every filter', async () => {
    const router = renderAt('/clients?page=2');
    const status = await screen.findByRole('combobox', { name: 'Status' });
    status.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(search(router).status).toBe('inactive'));
    expect(search(router).page).toBeUndefined();
    await screen.findByText('1–10 of 10');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search clients' }), 'Nobody');
    await screen.findByText('No clients match');
    expect(search(router).search).toBe('Nobody');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('1–25 of 30');
    expect(search(router).search).toBeUndefined();
    expect(search(router).status).toBeUndefined();
    expect(screen.getByRole('searchbox', { name: 'Search clients' })).toHaveValue('');
  });

  it('selects rows for the bulk bar, and an action empties the selection', async () => {
    renderAt('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Client 01' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Client 02' }));
    await userEvent.click(screen.getByRole('button', { name: 'Archive 2' }));
    await waitFor(() => expect(screen.queryByText('2 selected')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Select Client 01' })).not.toBeChecked();
  });

  it('shows the empty state, not the no-match one, when nothing is filtered', async () => {
    renderAt('/clients?page=9');
    await screen.findByText('No clients yet');
  });
});

describe('list URL parsing', () => {
  it('keeps what parses and drops a hand-edited rest', () => {
    expect(
      parseListParams({ page: 3, pageSize: 50, sort: 'name', direction: 'desc', search: ' gst ' }, ['name']),
    ).toEqual({ page: 3, pageSize: 50, sort: 'name', direction: 'desc', search: 'gst' });
    expect(
      parseListParams({ page: -1, pageSize: 10_000, sort: 'password', direction: 'up', search: '  ' }, [
        'name',
      ]),
    ).toEqual({ page: undefined, pageSize: 200, sort: undefined, direction: undefined, search: undefined });
    expect(parseListParams({ pageSize: 500 }, undefined, 100).pageSize).toBe(100);
  });

  it('fills the query from the defaults, and an unknown sort falls back to the default', () => {
    expect(listQueryParams({}, { sort: 'name' })).toEqual({
      page: 1,
      pageSize: 25,
      sort: 'name',
      direction: 'asc',
    });
    expect(
      listQueryParams({ sort: 'evil', search: 'x' }, { sort: 'name', sorts: ['name', 'clients'] }),
    ).toEqual({ page: 1, pageSize: 25, sort: 'name', direction: 'asc', search: 'x' });
    expect(listQueryParams({ sort: 'clients' }, { sort: 'name', sorts: ['name', 'clients'] }).sort).toBe(
      'clients',
    );
  });
});
