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
import { Users } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { type BreadcrumbItem, Breadcrumbs } from './breadcrumbs';
import './test-setup';

function renderAt(items: BreadcrumbItem[]) {
  const rootRoute = createRootRoute({ component: Outlet });
  const page = createRoute({
    getParentRoute: () => rootRoute,
    path: '/clients/$id',
    component: () => <Breadcrumbs items={items} />,
  });
  const index = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    component: () => <p>Home page</p>,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([index, page]),
    history: createMemoryHistory({ initialEntries: ['/clients/42'] }),
  });
  return render(<RouterProvider router={router} />);
}

describe('Breadcrumbs', () => {
  it('starts with Home linking to the index and ends with the current page', async () => {
    renderAt([
      { label: 'Clients', icon: Users, to: '/clients' },
      { label: 'Acme Ltd', to: '/clients/$id', params: { id: '42' } },
    ]);
    const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    const items = within(nav).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const home = within(items[0] as HTMLElement).getByRole('link', { name: 'Home' });
    expect(home).toHaveAttribute('href', '/');
    const clients = within(items[1] as HTMLElement).getByRole('link', { name: 'Clients' });
    expect(clients).toHaveAttribute('href', '/clients');
    // A section above the page is not the current page, though the URL starts with it.
    expect(clients).not.toHaveAttribute('aria-current');
    expect(home).not.toHaveAttribute('aria-current');

    const current = within(items[2] as HTMLElement)
      .getByText('Acme Ltd')
      .closest('[aria-current]');
    expect(current).toHaveAttribute('aria-current', 'page');
    // The current page is not a link to itself.
    expect(within(items[2] as HTMLElement).queryByRole('link')).not.toBeInTheDocument();
  });

  it('marks Home as the current page when the trail is empty', async () => {
    renderAt([]);
    const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  });
});
