import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { AppShell } from '../features/shell/app-shell';
import { NotFoundScreen } from '../features/shell/not-found-screen';
import { RootError } from '../features/shell/root-error';
import type { trpc } from '../lib/trpc';

export type TRouterContext = { queryClient: QueryClient; trpc: typeof trpc };

export const Route = createRootRouteWithContext<TRouterContext>()({
  component: AppShell,
  notFoundComponent: NotFoundScreen,
  errorComponent: RootError,
});
